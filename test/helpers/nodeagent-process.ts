// `plat nodeagent` as a child process against a test API server: a bootstrap kubeconfig with a
// bootstrap token, a NodeAgentConfiguration on free loopback ports, its own cert dir and
// kubeconfig path; waitFor() reads its log.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
// GO_YAML: quoted so that plat, reading these files by YAML 1.1, gets the strings back.
import { GO_YAML } from '../../core/api/go-yaml.js';
import { freePort, platBin } from './plat.js';

/** A non-loopback IPv4 address of this machine for --node-ip: upstream refuses a loopback node IP. */
export function hostIpv4(): string {
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('this machine has no non-loopback IPv4 address for the node');
}

export interface AgentDirs { readonly dir: string; readonly certDir: string; readonly kubeconfig: string; readonly bootstrap: string; readonly config: string }

export function writeBootstrapKubeconfig(file: string, server: string, caFile: string, token: string): void {
  writeFileSync(file, stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'plat', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: 'bootstrap', user: { token } }],
    contexts: [{ name: 'bootstrap', context: { cluster: 'plat', user: 'bootstrap' } }],
    'current-context': 'bootstrap',
  }, GO_YAML), { mode: 0o600 });
}

export interface AgentProcess { readonly child: ChildProcess; readonly port: number; output(): string; waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>; stop(): Promise<number | null> }

export async function agentDirs(dir: string, server: string, caFile: string, token: string, config: Record<string, unknown>): Promise<AgentDirs & { port: number; healthzPort: number }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const healthzPort = await freePort();
  const dirs = { dir, certDir: path.join(dir, 'pki'), kubeconfig: path.join(dir, 'nodeagent.conf'), bootstrap: path.join(dir, 'bootstrap.conf'), config: path.join(dir, 'config.yaml') };
  writeBootstrapKubeconfig(dirs.bootstrap, server, caFile, token);
  writeFileSync(dirs.config, stringify({
    apiVersion: 'nodeagent.config.platform/v1beta1', kind: 'NodeAgentConfiguration',
    address: '127.0.0.1', port, healthzBindAddress: '127.0.0.1', healthzPort, rotateCertificates: true,
    staticPodPath: '', ...config,
  }, GO_YAML));
  return { ...dirs, port, healthzPort };
}

export function startAgent(dirs: AgentDirs & { port: number }, nodeName: string, extra: string[] = []): AgentProcess {
  const child = spawn(process.execPath, [platBin, 'nodeagent', '--config', dirs.config, '--hostname-override', nodeName, '--node-ip', '127.0.0.1',
    '--cert-dir', dirs.certDir, '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap, '-v', '2', ...extra], { cwd: dirs.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (b: Buffer) => { out += b.toString(); for (const l of [...listeners]) l(); };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => { for (const l of [...listeners]) l(); r(code); }));
  return {
    child, port: dirs.port, output: () => out,
    waitFor: (re, ms = 30_000) => new Promise((resolve, reject) => {
      const check = () => {
        const m = re.exec(out);
        if (m) { done(); resolve(m); } else if (child.exitCode !== null) { done(); reject(new Error(`the agent exited (${child.exitCode}) before ${re}:\n${out}`)); }
      };
      const timer = setTimeout(() => { done(); reject(new Error(`no ${re} within ${ms} ms:\n${out}`)); }, ms);
      const done = () => { clearTimeout(timer); listeners.delete(check); };
      listeners.add(check);
      check();
    }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
