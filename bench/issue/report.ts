// The run as people read it (a table per key type, the ratio against issue 6's target) and as
// JSON for bench/results.
import type { IssueBenchResult, KeyTypeRun, TargetResult } from './run.js';
import { CFSSL_INSTALL } from './cfssl-target.js';
import type { PhaseNumbers } from './measure.js';
import { KEY_LABEL, type ControllerMode } from './options.js';

export const TARGET_RATIO = 1.0;

const fmt = (v: number, digits = 0) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (v: number) => (v >= 100 ? fmt(v) : fmt(v, 1));

function row(name: string, t: TargetResult, n: number): string {
  if (!t.available || !t.numbers) return `| ${name} | not measured: ${t.reason ?? ''} | | | | | | |`;
  const x = t.numbers;
  const v = t.verification;
  const checked = v ? `${v.verified}/${n}${v.issuedOnce ? ', each once' : ' — NOT all issued once'}` : '';
  return `| ${name} | ${fmt(x.certsPerSec)} | ${ms(x.p50Ms)} | ${ms(x.p99Ms)} | ${x.serverCpuMsPerCert === null ? 'n/a' : fmt(x.serverCpuMsPerCert, 2)} | ${x.eventLoopCpuMsPerCert === null ? 'n/a' : fmt(x.eventLoopCpuMsPerCert, 2)} | ${fmt(x.harnessCpuMsPerCert, 2)} | ${checked} |`;
}

/**
 * Certificates per second the machine's CPU allows at a measured cost per certificate, with every
 * core doing nothing else: what a target could reach if nothing but CPU limited it.
 */
export function cpuBound(cpus: number, cpuMsPerCert: number): number {
  return cpuMsPerCert > 0 ? (cpus * 1000) / cpuMsPerCert : Infinity;
}

/** The CPU-bound lines: both targets at their measured cost, and a server costing nothing behind plat's load generator. */
function boundLines(r: KeyTypeRun, cpus: number): string[] {
  const total = (t: TargetResult) => (t.numbers && t.numbers.serverCpuMsPerCert !== null ? t.numbers.serverCpuMsPerCert + t.numbers.harnessCpuMsPerCert : null);
  const plat = total(r.plat);
  const cfssl = total(r.cfssl);
  const stored = total(r.cfsslStored);
  if (plat === null) return [];
  const both = [`plat ${fmt(cpuBound(cpus, plat))}/s`, ...(cfssl === null ? [] : [`cfssl ${fmt(cpuBound(cpus, cfssl))}/s`]),
    ...(stored === null ? [] : [`cfssl stored ${fmt(cpuBound(cpus, stored))}/s`])];
  const lines = [`CPU bound on ${cpus} cores (server and load generator CPU per certificate): ${both.join(', ')}`];
  const harness = r.plat.numbers!.harnessCpuMsPerCert;
  const floor = cpuBound(cpus, harness);
  const versus = r.cfssl.numbers ? ` (${(floor / r.cfssl.numbers.certsPerSec).toFixed(2)}x cfssl's measured rate)` : '';
  lines.push(`plat's load generator alone (its side of plat's API per certificate: two HTTPS requests and the watch) uses ${fmt(harness, 2)} ms of CPU: `
    + `behind it, a server using no CPU at all could show at most ${fmt(floor)} certificates/s on these ${cpus} cores${versus}`);
  return [...lines, ''];
}

const opt = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : fmt(v, 2));

/**
 * `--stages`: CPU per request of the three writes measured one kind at a time, and what the full
 * run spent per certificate beyond them: the signing controller's own side (its informer, the
 * hand-off to the signing pool, the client end of its status write) and whatever the three cost
 * more together than apart. The event loop's remainder is shown only where the full run's busiest
 * event loop is plat all's (the signing controller inside it).
 */
function stageLines(r: KeyTypeRun, controller: ControllerMode): string[] {
  const full = r.plat.numbers;
  const st = r.plat.stageCpu;
  if (!full || !st) return [];
  const parts = [st.create, st.approve, st.status];
  const rest = (total: number | null, pick: (x: PhaseNumbers) => number | null) => {
    const each = parts.map(pick);
    return total === null || each.some((v) => v === null) ? null : each.reduce<number>((a, b) => a - b!, total);
  };
  const stage = (name: string, x: PhaseNumbers) => `| ${name} | ${fmt(x.certsPerSec)} | ${opt(x.eventLoopCpuMsPerCert)} | ${opt(x.serverCpuMsPerCert)} | ${fmt(x.harnessCpuMsPerCert, 2)} |`;
  const restLoop = controller === 'embedded' ? rest(full.eventLoopCpuMsPerCert, (x) => x.eventLoopCpuMsPerCert) : null;
  return [
    'plat by stage (--stages: a second plat all without a signing controller, the same CSRs and watch, one kind of request at a time; CPU per request):',
    '',
    '| stage | requests/s | event loop CPU ms | server CPU ms | load generator CPU ms |',
    '|---|---:|---:|---:|---:|',
    stage('create: POST the CSR', st.create),
    stage('approve: PUT /approval', st.approve),
    stage('issue: PUT /status with the certificate (sent by the benchmark)', st.status),
    `| the rest of a certificate in the full run (the signing controller's own side; the three together beyond apart) | | ${opt(restLoop)} | ${opt(rest(full.serverCpuMsPerCert, (x) => x.serverCpuMsPerCert))} | |`,
    '',
  ];
}

export function renderRun(r: KeyTypeRun, n: number, cpus: number, controller: ControllerMode): string {
  const lines = [
    `${KEY_LABEL[r.keyType]} keys, ${KEY_LABEL[r.keyType]} CA:`,
    '',
    '| target | certs/s | p50 ms | p99 ms | server CPU ms/cert | of it, event loop | harness CPU ms/cert | issued and verified |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    row('plat', r.plat, n),
    row('cfssl', r.cfssl, n),
    row('cfssl stored', r.cfsslStored, n),
    '',
  ];
  const st = r.plat.stages;
  if (st) lines.push(`plat stages (mean): create ${ms(st.createMs)} ms, approve ${ms(st.approveMs)} ms, approved → certificate on the watch ${ms(st.issueMs)} ms`, '');
  const loop = r.plat.numbers?.eventLoopCpuMsPerCert;
  if (loop) lines.push(`plat's event loop: ${fmt(loop, 2)} ms of CPU per certificate, a bound of ${fmt(1000 / loop)} certificates/s however many cores`, '');
  lines.push(...stageLines(r, controller));
  lines.push(...boundLines(r, cpus));
  if (r.ratio !== null) lines.push(`plat / cfssl: ${r.ratio.toFixed(2)}x (issue 6's target: at least ${TARGET_RATIO.toFixed(1)}x${r.ratio >= TARGET_RATIO ? ', met' : ', not met'})`, '');
  if (r.storedRatio !== null) lines.push(`plat / cfssl stored (HTTPS, client certificates, its certificate database): ${r.storedRatio.toFixed(2)}x`, '');
  for (const [name, t] of [['plat', r.plat], ['cfssl', r.cfssl], ['cfssl stored', r.cfsslStored]] as const) {
    for (const p of t.verification?.problems ?? []) lines.push(`${name} problem: ${p}`);
  }
  return lines.join('\n');
}

export function renderReport(result: IssueBenchResult): string {
  const e = result.environment;
  const c = result.config;
  const p = result.plat;
  const head = [
    `plat bench issue: ${c.csrs} CSRs per target (after ${c.warmup} warm-up), concurrency ${c.concurrency}, signer ${c.signer}, usages ${c.usages.join(', ')}, ${c.lifetimeHours}h`,
    `node ${e.node}, ${e.cpus} x ${e.cpu} (${e.platform}), load average before the run ${e.loadAverage.join(' ')}`,
    `plat:  ${p.setup}; signing controller ${p.controller === 'embedded' ? 'inside plat all (its embedded controller manager)' : 'in a plat controller-manager process of its own'}, --plat-api-qps ${p.apiQps} --plat-api-burst ${p.apiBurst}`,
    result.cfssl.version ? `cfssl: ${result.cfssl.version}: ${result.cfssl.setup}` : `cfssl: not measured (install: ${CFSSL_INSTALL})`,
    ...(result.cfssl.version && result.cfssl.storedSetup ? [`cfssl stored: ${result.cfssl.storedSetup}`] : []),
    'latency: from before the first request to the certificate in hand (plat: create → approve → watch; cfssl: one sign request); CPU from /proc',
    '',
  ];
  return [...head, ...result.runs.map((r) => renderRun(r, c.csrs, e.cpus, p.controller))].join('\n') + '\n';
}

export function toJson(result: IssueBenchResult): string {
  return JSON.stringify(result, (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v), 2) + '\n';
}
