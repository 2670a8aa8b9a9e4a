// The report of `plat bench nodeagents`: a table and the JSON record.
import type { NodeAgentsBenchResult } from './run.js';

const n = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? 'n/a' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

export function renderNodeAgentsReport(r: NodeAgentsBenchResult): string {
  const s = r.server;
  return [
    `plat bench nodeagents: ${r.agents} node agents in one process against one plat all (a process of its own, LMDB), one bootstrap token`,
    `node ${r.environment.node}, ${r.environment.cpus} x ${r.environment.cpu}, load average ${r.environment.loadAverage.join(' ')}`,
    'each agent: TLS bootstrap (P-256 key, CSR auto-approved and issued), Node registered, Lease renewed every 10 s (40 s lease); its server is off (enableServer: false)',
    '',
    '| measure | value |',
    '|---|---:|',
    `| agents bootstrapped, registered, with a Lease | ${r.checks.certificates} certificates, ${r.checks.nodes} Nodes, ${r.checks.freshLeases} fresh Leases |`,
    `| time to all bootstrapped | ${n(r.bootstrapSeconds, 1)} s |`,
    `| API server CPU, bootstrap phase | ${n(s.bootstrapCpuMs)} ms (${n(s.bootstrapCpuMs === null ? null : s.bootstrapCpuMs / r.agents, 1)} ms per agent) |`,
    `| API server CPU, holding ${r.holdSeconds} s | ${n(s.holdCpuMs)} ms (${n(s.holdCpuPercent, 1)}% of one core) |`,
    `| API server RSS, peak / end | ${n(s.memory?.peakRssMiB)} / ${n(s.memory?.endRssMiB)} MiB |`,
    `| the agents' process: CPU, peak RSS | ${n(r.bench.cpuMs)} ms, ${n(r.bench.peakRssMiB)} MiB (${n(r.bench.peakRssMiB / r.agents, 2)} MiB per agent) |`,
    '',
    r.checks.problems.length ? `FAILED:\n${r.checks.problems.map((p) => `- ${p}`).join('\n')}\n` : 'every agent: one CSR, issued; its Node; its Lease renewed within the lease duration (and during the hold)\n',
  ].join('\n');
}

export const toJson = (r: NodeAgentsBenchResult): string => `${JSON.stringify(r, null, 2)}\n`;
