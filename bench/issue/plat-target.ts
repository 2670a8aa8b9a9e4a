// `plat all` on a fresh LMDB data dir as a process of its own, with the run's CA as the cluster
// signing CA. Its signing controller runs either inside it (`embedded`: the all-in-one controller
// manager) or in a `plat controller-manager` process of its own (`separate`: plat all then runs
// every controller but csrsigning), both with the asked --plat-api-qps/--plat-api-burst.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientConnection } from '../../core/client/connection.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { ChildServer } from './child.js';
import type { BenchCa } from './inputs.js';
import type { ControllerMode } from './options.js';

const PLAT_MAIN = fileURLToPath(new URL('../../host/main.js', import.meta.url));

export interface PlatTarget {
  readonly url: string;
  readonly connection: ClientConnection;
  /** The processes whose CPU counts as plat's: the server, and the controller manager when it has its own. */
  pids(): (number | undefined)[];
  /** The last output of the processes, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface PlatTargetOptions {
  readonly dataDir: string;
  readonly ca: BenchCa;
  readonly controller: ControllerMode;
  readonly qps: number;
  readonly burst: number;
  /** Run the processes under node --cpu-prof, profiles written here. */
  readonly cpuProfDir?: string;
  /** No signing controller at all (`plat all` runs the other controllers): CSRs are created and approved, never issued. */
  readonly withoutSigning?: boolean;
}

export async function startPlat(o: PlatTargetOptions): Promise<PlatTarget> {
  const caDir = path.join(o.dataDir, 'bench-ca');
  mkdirSync(caDir, { recursive: true, mode: 0o700 });
  const caCert = path.join(caDir, 'ca.crt');
  const caKey = path.join(caDir, 'ca.key');
  writeFileSync(caCert, o.ca.certificatePem);
  writeFileSync(caKey, o.ca.privateKeyPem, { mode: 0o600 });
  const node = o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(o.cpuProfDir)] : [];
  const signing = ['--cluster-signing-cert-file', caCert, '--cluster-signing-key-file', caKey];
  const client = ['--plat-api-qps', String(o.qps), '--plat-api-burst', String(o.burst)];

  const store = path.join(o.dataDir, 'plat');
  const embedded = o.controller === 'embedded' && !o.withoutSigning;
  const separate = o.controller === 'separate' && !o.withoutSigning;
  const server = new ChildServer('plat all', process.execPath,
    [...node, PLAT_MAIN, 'all', '--data-dir', store, '--secure-port', '0', ...client, ...(embedded ? signing : ['--controllers', '*,-csrsigning'])],
    // cwd is the run's own directory, so no plat.config.* of the caller's is picked up.
    { cwd: o.dataDir });
  const children = [server];
  try {
    const url = (await server.waitFor(/plat is serving at (https:\/\/\S+)/, 60_000))[1]!;
    const kubeconfig = path.join(store, 'admin.conf');
    if (separate) {
      // The only signing controller, so no leader election; no endpoint of its own (--secure-port 0).
      const cm = new ChildServer('plat controller-manager', process.execPath,
        [...node, PLAT_MAIN, 'controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false',
          '--controllers', 'csrsigning', ...client, ...signing], { cwd: o.dataDir });
      children.push(cm);
      await cm.waitFor(/Caches are synced/, 60_000);
    }
    return {
      url, connection: loadKubeconfig(kubeconfig),
      pids: () => children.map((c) => c.pid),
      output: () => children.map((c) => `--- ${c.label}:\n${c.output}`).join('\n'),
      stop: async () => { for (const c of [...children].reverse()) await c.stop(); },
    };
  } catch (e) {
    for (const c of [...children].reverse()) await c.stop();
    throw e;
  }
}
