// `plat bench nodeagents`: N node agents in this process (the real `nodeagent` profile, each with
// its own directories) bootstrap against one `plat all` (a process of its own) from one bootstrap
// token, register their Nodes and hold their Leases for a while; the API server's CPU and memory
// are read from /proc. Checks at the end: every agent got exactly one client certificate through
// one CSR, has its Node, and renewed its Lease within the lease duration.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { boot } from '../../core/boot.js';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { Host } from '../../core/host.js';
import { silentLogger } from '../../core/log.js';
import { profiles } from '../../host/profiles.js';
import { getNodeAgentContext } from '../../plugins/nodeagent/index.js';
import { ChildServer } from '../issue/child.js';
import { processCpuMs } from '../issue/measure.js';

const PLAT_MAIN = fileURLToPath(new URL('../../host/main.js', import.meta.url));

export interface NodeAgentsBenchOptions {
  readonly agents: number;
  readonly seconds: number;
  readonly staggerMs: number;
  readonly log?: (line: string) => void;
}

export interface Memory { readonly peakRssMiB: number; readonly endRssMiB: number }
export interface NodeAgentsBenchResult {
  readonly environment: { node: string; cpus: number; cpu: string; date: string; loadAverage: number[] };
  readonly agents: number;
  readonly holdSeconds: number;
  /** From the first agent's start to every agent with a certificate, a Node and a Lease. */
  readonly bootstrapSeconds: number;
  readonly server: { bootstrapCpuMs: number | null; holdCpuMs: number | null; holdCpuPercent: number | null; memory: Memory | null };
  readonly bench: { cpuMs: number; peakRssMiB: number };
  readonly checks: { certificates: number; csrs: number; nodes: number; freshLeases: number; problems: string[] };
}

function rssMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | null {
  if (pid === undefined) return null;
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch { return null; }
}

function hostIpv4(): string {
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('this machine has no non-loopback IPv4 address for the nodes (upstream refuses a loopback node IP)');
}

/** The node agents' nodeLeaseDurationSeconds: the default, which the bench's configuration keeps. */
const LEASE_SECONDS = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runNodeAgentsBench(o: NodeAgentsBenchOptions): Promise<NodeAgentsBenchResult> {
  const log = o.log ?? (() => {});
  const root = mkdtempSync(path.join(os.tmpdir(), 'plat-bench-nodeagents-'));
  const server = new ChildServer('plat all', process.execPath,
    [PLAT_MAIN, 'all', '--data-dir', path.join(root, 'plat'), '--secure-port', '0', '--enable-bootstrap-token-auth'], { cwd: root });
  const hosts: Host[] = [];
  try {
    const url = (await server.waitFor(/plat is serving at (https:\/\/\S+)/, 60_000))[1]!;
    const admin = new RestClient(loadKubeconfig(path.join(root, 'plat', 'admin.conf')), { qps: 0 });
    const id = Math.random().toString(16).slice(2, 8);
    const secret = Math.random().toString(16).slice(2, 18).padEnd(16, '0');
    await admin.request('POST', '/api/v1/namespaces/plat-system/secrets', {
      body: {
        apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.platform/token', metadata: { name: `bootstrap-token-${id}` },
        stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true' },
      },
    });
    const caFile = path.join(root, 'plat', 'pki', 'ca.crt');
    const nodeIp = hostIpv4();
    const bootstrap = path.join(root, 'bootstrap.conf');
    writeFileSync(bootstrap, stringify({
      apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'plat', cluster: { server: url, 'certificate-authority': caFile } }],
      users: [{ name: 'bootstrap', user: { token: `${id}.${secret}` } }], contexts: [{ name: 'b', context: { cluster: 'plat', user: 'bootstrap' } }], 'current-context': 'b',
    }), { mode: 0o600 });
    const config = path.join(root, 'config.yaml');
    writeFileSync(config, stringify({
      apiVersion: 'nodeagent.config.platform/v1beta1', kind: 'NodeAgentConfiguration', rotateCertificates: true, enableServer: false, healthzPort: 0,
    }));

    const cpu0 = processCpuMs(server.pid);
    const bench0 = process.cpuUsage();
    let benchPeak = process.memoryUsage().rss;
    let serverPeak = 0;
    const sampler = setInterval(() => {
      serverPeak = Math.max(serverPeak, rssMiB(server.pid, 'VmRSS') ?? 0);
      benchPeak = Math.max(benchPeak, process.memoryUsage().rss);
    }, 500);
    const started = performance.now();
    log(`starting ${o.agents} agents (${o.staggerMs} ms apart)`);
    for (let i = 0; i < o.agents; i++) {
      const dir = path.join(root, 'agents', `n${i}`);
      mkdirSync(dir, { recursive: true });
      const { host } = await boot({
        profile: profiles['nodeagent']!, cwd: dir, logger: silentLogger, version: 'bench',
        argv: ['--config', config, '--hostname-override', `bench-node-${i}`, '--node-ip', nodeIp, '--cert-dir', path.join(dir, 'pki'),
          '--platconfig', path.join(dir, 'nodeagent.conf'), '--bootstrap-kubeconfig', bootstrap],
      });
      hosts.push(host);
      if (o.staggerMs > 0) await sleep(o.staggerMs);
    }
    // Every agent with a certificate, and every Node and Lease stored (bounded: 10 minutes).
    const leases = { group: 'coordination.platform', version: 'v1', plural: 'leases', namespace: 'plat-node-lease' };
    const nodes = { group: '', version: 'v1', plural: 'nodes' };
    const deadline = Date.now() + 600_000;
    for (;;) {
      const withCert = hosts.filter((h) => getNodeAgentContext(h)?.api.isSet()).length;
      const nodeCount = (await admin.list(nodes)).items.length;
      const leaseCount = (await admin.list(leases)).items.length;
      if (withCert === o.agents && nodeCount >= o.agents && leaseCount >= o.agents) break;
      if (Date.now() > deadline) throw new Error(`after 10 minutes: ${withCert} certificates, ${nodeCount} Nodes, ${leaseCount} Leases of ${o.agents}`);
      await sleep(250);
    }
    const bootstrapSeconds = (performance.now() - started) / 1000;
    const cpu1 = processCpuMs(server.pid);
    log(`all ${o.agents} bootstrapped in ${bootstrapSeconds.toFixed(1)} s; holding for ${o.seconds} s`);
    type LeaseItem = { apiVersion?: string; kind?: string; metadata: { name?: string }; spec?: { renewTime?: string; leaseDurationSeconds?: number } };
    const renewedBefore = new Map((await admin.list<LeaseItem>(leases)).items.map((l) => [l.metadata.name, l.spec?.renewTime]));
    await sleep(o.seconds * 1000);
    const cpu2 = processCpuMs(server.pid);
    clearInterval(sampler);

    // Checks.
    const problems: string[] = [];
    const now = Date.now();
    const leaseItems = (await admin.list<LeaseItem>(leases)).items;
    // A hold longer than one renew interval must see each Lease renewed in it: a Lease no agent
    // renews is still younger than its duration after a short hold. The spec's interval (a quarter
    // of the lease duration, with up to 4% jitter), not the agent's constants, so that an agent
    // renewing too seldom fails here.
    const mustRenew = o.seconds > LEASE_SECONDS * 0.25 * 1.04;
    let fresh = 0;
    for (let i = 0; i < o.agents; i++) {
      const name = `bench-node-${i}`;
      const l = leaseItems.find((x) => x.metadata.name === name);
      const age = l?.spec?.renewTime ? (now - Date.parse(l.spec.renewTime)) / 1000 : Infinity;
      if (age > (l?.spec?.leaseDurationSeconds ?? LEASE_SECONDS)) problems.push(`${name}: Lease not renewed for ${age.toFixed(0)} s`);
      else if (mustRenew && l?.spec?.renewTime === renewedBefore.get(name)) problems.push(`${name}: Lease not renewed during the ${o.seconds} s hold`);
      else fresh++;
    }
    const csrs = (await admin.list<Csr>(CSR_RESOURCE)).items.filter((c) => c.spec.signerName === 'platform/apiserver-client-nodeagent');
    const issued = csrs.filter((c) => c.status?.certificate).length;
    if (csrs.length !== o.agents) problems.push(`${csrs.length} client CSRs for ${o.agents} agents`);
    if (issued !== csrs.length) problems.push(`${csrs.length - issued} client CSRs not issued`);
    const nodeCount = (await admin.list(nodes)).items.length;
    if (nodeCount !== o.agents) problems.push(`${nodeCount} Nodes for ${o.agents} agents`);
    const bench1 = process.cpuUsage(bench0);
    const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
    const holdCpuMs = diff(cpu1, cpu2);
    admin.close();
    return {
      environment: { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model.trim() ?? '', date: new Date().toISOString(), loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100) },
      agents: o.agents, holdSeconds: o.seconds, bootstrapSeconds,
      server: {
        bootstrapCpuMs: diff(cpu0, cpu1), holdCpuMs, holdCpuPercent: holdCpuMs === null ? null : (100 * holdCpuMs) / (o.seconds * 1000),
        memory: serverPeak ? { peakRssMiB: Math.max(serverPeak, rssMiB(server.pid, 'VmHWM') ?? 0), endRssMiB: rssMiB(server.pid, 'VmRSS') ?? 0 } : null,
      },
      bench: { cpuMs: (bench1.user + bench1.system) / 1000, peakRssMiB: benchPeak / 2 ** 20 },
      checks: { certificates: hosts.filter((h) => getNodeAgentContext(h)?.api.isSet()).length, csrs: csrs.length, nodes: nodeCount, freshLeases: fresh, problems },
    };
  } finally {
    await Promise.all(hosts.map((h) => h.hooks.shutdown.promise().catch(() => {})));
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
