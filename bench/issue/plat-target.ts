// `plat all` on a fresh LMDB data dir as a process of its own, with the run's CA as the cluster
// signing CA. Its signing controller runs either inside it (`embedded`: the all-in-one controller
// manager, with --plat-api-qps/--plat-api-burst) or in a separate controller process the
// benchmark starts (`harness`), for a `plat all` that does not run controllers.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientConnection } from '../../core/client/connection.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { ChildServer } from './child.js';
import type { BenchCa } from './inputs.js';
import type { ControllerMode } from './options.js';

const PLAT_MAIN = fileURLToPath(new URL('../../host/main.js', import.meta.url));
const CONTROLLER_MAIN = fileURLToPath(new URL('./controller-main.js', import.meta.url));

export interface PlatTarget {
  readonly url: string;
  readonly connection: ClientConnection;
  readonly controller: 'embedded' | 'harness';
  /** The processes whose CPU counts as plat's: the server, and the controller when it has its own. */
  pids(): (number | undefined)[];
  /** The last output of the processes, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Whether this build's `plat all` runs controllers (it then defines the controller manager's client flags). */
export function allRunsControllers(): boolean {
  const help = spawnSync(process.execPath, [PLAT_MAIN, 'all', '--help'], { encoding: 'utf8', timeout: 60_000 });
  return help.stdout.split('\n').some((l) => /--plat-api-qps\b/.test(l) && !/not supported/.test(l));
}

export function resolveControllerMode(mode: ControllerMode): 'embedded' | 'harness' {
  if (mode !== 'auto') return mode;
  return allRunsControllers() ? 'embedded' : 'harness';
}

export async function startPlat(o: { dataDir: string; ca: BenchCa; controller: 'embedded' | 'harness'; qps: number; burst: number; cpuProfDir?: string }): Promise<PlatTarget> {
  const node = o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(o.cpuProfDir)] : [];
  const caDir = path.join(o.dataDir, 'bench-ca');
  mkdirSync(caDir, { recursive: true, mode: 0o700 });
  const caCert = path.join(caDir, 'ca.crt');
  const caKey = path.join(caDir, 'ca.key');
  writeFileSync(caCert, o.ca.certificatePem);
  writeFileSync(caKey, o.ca.privateKeyPem, { mode: 0o600 });
  const signing = ['--cluster-signing-cert-file', caCert, '--cluster-signing-key-file', caKey];
  const client = ['--plat-api-qps', String(o.qps), '--plat-api-burst', String(o.burst)];

  const store = path.join(o.dataDir, 'plat');
  const args = [...node, PLAT_MAIN, 'all', '--data-dir', store, '--secure-port', '0', ...(o.controller === 'embedded' ? [...signing, ...client] : [])];
  // cwd is the run's own directory, so no plat.config.* of the caller's is picked up.
  const server = new ChildServer('plat all', process.execPath, args, { cwd: o.dataDir });
  const children = [server];
  try {
    const url = (await server.waitFor(/plat is serving at (https:\/\/\S+)/, 60_000))[1]!;
    const kubeconfig = path.join(store, 'admin.conf');
    if (o.controller === 'harness') {
      const controller = new ChildServer('the benchmark\'s signing controller', process.execPath,
        [...node, CONTROLLER_MAIN, '--kubeconfig', kubeconfig, '--qps', String(o.qps), '--burst', String(o.burst), '--', ...signing], { cwd: o.dataDir });
      children.push(controller);
      await controller.waitFor(/controller ready/, 60_000);
    }
    return {
      url, connection: loadKubeconfig(kubeconfig), controller: o.controller,
      pids: () => children.map((c) => c.pid),
      output: () => children.map((c) => `--- ${c.label}:\n${c.output}`).join('\n'),
      stop: async () => { for (const c of [...children].reverse()) await c.stop(); },
    };
  } catch (e) {
    for (const c of [...children].reverse()) await c.stop();
    throw e;
  }
}
