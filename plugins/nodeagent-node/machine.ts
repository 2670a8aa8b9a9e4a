// What the node agent reports about its machine, read where cAdvisor reads it: logical CPUs,
// MemTotal, the machine ID (/etc/machine-id, else /var/lib/dbus/machine-id), the system UUID
// (/sys/class/dmi/id/product_uuid, readable by root only on most hosts), the boot ID, the kernel
// release (uname -r), the OS image (PRETTY_NAME of /etc/os-release, "Linux" without it) and the
// capacity of the file system holding the agent's root directory (ephemeral storage).
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { goArch, goOs } from '../../core/go-platform.js';

export interface MachineInfo {
  readonly numCores: number;
  readonly memoryCapacity: bigint;
  readonly machineID: string;
  readonly systemUUID: string;
  readonly bootID: string;
  readonly kernelVersion: string;
  readonly osImage: string;
  /** Bytes of the file system holding the root directory; undefined when it cannot be measured. */
  readonly rootfsCapacity: bigint | undefined;
  /** GOOS and GOARCH names (linux/amd64), as the platform labels and nodeInfo carry them. */
  readonly operatingSystem: string;
  readonly architecture: string;
}

export type MachineInfoSource = (rootDir: string) => Promise<MachineInfo>;

export { goArch, goOs };

const firstLine = async (...files: string[]): Promise<string> => {
  for (const f of files) {
    try {
      const text = (await readFile(f, 'utf8')).trim();
      if (text) return text;
    } catch { /* try the next one */ }
  }
  return '';
};

/** PRETTY_NAME from an os-release file, unquoted as the shell would. */
export function prettyName(osRelease: string): string | undefined {
  const m = /^PRETTY_NAME=(.*)$/m.exec(osRelease);
  if (!m) return undefined;
  const v = m[1]!.trim();
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/** statfs of the nearest existing directory on the way to `dir` (the agent creates its root directory later). */
async function fileSystemCapacity(dir: string): Promise<bigint | undefined> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      const s = await statfs(d, { bigint: true });
      return s.bsize * s.blocks;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || d === path.dirname(d)) return undefined;
    }
  }
}

export const realMachineInfo: MachineInfoSource = async (rootDir) => {
  let osImage = os.platform() === 'linux' ? 'Linux' : os.version();
  try { osImage = prettyName(await readFile('/etc/os-release', 'utf8')) ?? osImage; } catch { /* keep the default */ }
  return {
    numCores: os.cpus().length,
    memoryCapacity: BigInt(os.totalmem()),
    machineID: await firstLine('/etc/machine-id', '/var/lib/dbus/machine-id'),
    systemUUID: await firstLine('/sys/class/dmi/id/product_uuid'),
    bootID: await firstLine('/proc/sys/kernel/random/boot_id'),
    kernelVersion: os.release(),
    osImage,
    rootfsCapacity: await fileSystemCapacity(rootDir),
    operatingSystem: goOs(process.platform),
    architecture: goArch(process.arch),
  };
};
