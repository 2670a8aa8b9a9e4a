// `plat bench crypto` as a plan: which rows the chosen ops and implementations make, in print
// order (op, key type, implementation), then running them one after another — `openssl speed`
// first, each in-process row, then the worker-pool rows — with a progress bar over the planned time.
import os from 'node:os';
import { isUnavailable, KEY_TYPES, OPS, type BenchKeyType, type Op } from './impl.js';
import { IMPLS } from './impls/index.js';
import { makeInputs, type BenchInputs } from './inputs.js';
import { issueLimit, opensslDuration, opensslSpeed, type OpensslSpeed } from './openssl.js';
import { measureInWorkers } from './pool.js';
import { Progress } from './progress.js';
import { measure, warmupSeconds } from './run.js';

export interface BenchRow {
  op: Op;
  impl: string;
  keyType: BenchKeyType;
  /** null when the row is not available (see `unavailable`). */
  opsPerSec: number | null;
  usPerOp: number | null;
  /** What did the work. */
  backend: string;
  /** Present on worker-pool rows: the number of worker threads whose throughput is summed. */
  workers?: number;
  unavailable?: string;
}

export interface SuiteOptions {
  seconds: number;
  /** 0: no worker-pool rows. */
  workers: number;
  ops: readonly Op[];
  /** Names from IMPL_NAMES. */
  impls: readonly string[];
  keyTypes?: readonly BenchKeyType[];
}

export interface SuiteResult {
  rows: BenchRow[];
  openssl?: OpensslSpeed;
  environment: { node: string; cpus: number; cpu: string; platform: string; date: string };
}

/** Implementations `--impls` accepts; `openssl` also gives the `openssl-limit` issue rows. */
export const IMPL_NAMES: readonly string[] = [...IMPLS.map((i) => i.name), 'openssl'];

/** Implementations the worker pool runs `issue` with. */
const POOL_IMPLS = ['wasm', 'facade', 'native'];

type Step =
  | { kind: 'row'; op: Op; keyType: BenchKeyType; impl: string }
  | { kind: 'openssl'; op: Op; keyType: BenchKeyType }
  | { kind: 'pool'; keyType: BenchKeyType; impl: string };

function plan(o: SuiteOptions, keyTypes: readonly BenchKeyType[]): Step[] {
  const steps: Step[] = [];
  const opensslOn = o.impls.includes('openssl');
  for (const op of OPS) {
    if (!o.ops.includes(op)) continue;
    for (const keyType of keyTypes) {
      for (const impl of IMPLS) if (o.impls.includes(impl.name) && impl.supports(op, keyType)) steps.push({ kind: 'row', op, keyType, impl: impl.name });
      if (opensslOn && (op === 'sign' || op === 'verify' || op === 'issue')) steps.push({ kind: 'openssl', op, keyType });
    }
  }
  if (o.workers > 0 && o.ops.includes('issue')) {
    for (const keyType of keyTypes) for (const impl of POOL_IMPLS) if (o.impls.includes(impl)) steps.push({ kind: 'pool', keyType, impl });
  }
  return steps;
}

function opensslRow(step: { op: Op; keyType: BenchKeyType }, speed: OpensslSpeed | { unavailable: string } | undefined): BenchRow {
  const impl = step.op === 'issue' ? 'openssl-limit' : 'openssl';
  const base = { op: step.op, impl, keyType: step.keyType };
  const rates = speed && !('unavailable' in speed) ? speed.rates[step.keyType] : undefined;
  if (!rates || !speed || 'unavailable' in speed) {
    const why = speed && 'unavailable' in speed ? speed.unavailable : 'no figure in openssl speed output';
    return { ...base, opsPerSec: null, usPerOp: null, backend: 'openssl speed', unavailable: why };
  }
  const opsPerSec = step.op === 'sign' ? rates.sign : step.op === 'verify' ? rates.verify : issueLimit(rates);
  const backend = step.op === 'issue'
    ? `1/(1/sign + 1/verify), ${speed.version} speed`
    : `${speed.version} speed -seconds ${speed.seconds}`;
  return { ...base, opsPerSec, usPerOp: 1e6 / opsPerSec, backend };
}

export async function runCryptoBench(o: SuiteOptions): Promise<SuiteResult> {
  const keyTypes = o.keyTypes ?? KEY_TYPES;
  const steps = plan(o, keyTypes);
  const inputs = new Map<BenchKeyType, BenchInputs>(keyTypes.map((k) => [k, makeInputs(k)]));
  const needOpenssl = steps.some((s) => s.kind === 'openssl');
  const perRow = warmupSeconds(o.seconds) + o.seconds;
  const rowSteps = steps.filter((s) => s.kind !== 'openssl').length;
  const progress = new Progress((needOpenssl ? opensslDuration(o.seconds, keyTypes) : 0) + rowSteps * perRow);

  let speed: OpensslSpeed | { unavailable: string } | undefined;
  if (needOpenssl) {
    const s = progress.step('openssl speed ecdsap256 ed25519', opensslDuration(o.seconds, keyTypes));
    speed = await opensslSpeed(o.seconds, keyTypes, s.tick);
    s.end();
  }

  const rows: BenchRow[] = [];
  for (const step of steps) {
    if (step.kind === 'openssl') {
      rows.push(opensslRow(step, speed));
      continue;
    }
    const input = inputs.get(step.keyType)!;
    if (step.kind === 'pool') {
      const s = progress.step(`issue ${step.impl} ${step.keyType} x ${o.workers} workers`, perRow);
      const m = await measureInWorkers({ impl: step.impl, op: 'issue', inputs: input, seconds: o.seconds }, o.workers);
      s.end();
      rows.push(isUnavailable(m)
        ? { op: 'issue', impl: step.impl, keyType: step.keyType, opsPerSec: null, usPerOp: null, backend: '', workers: o.workers, unavailable: m.unavailable }
        : { op: 'issue', impl: step.impl, keyType: step.keyType, opsPerSec: m.opsPerSec, usPerOp: m.usPerOp, backend: m.backend, workers: o.workers });
      continue;
    }
    const s = progress.step(`${step.op} ${step.impl} ${step.keyType}`, perRow);
    const impl = IMPLS.find((i) => i.name === step.impl)!;
    const prepared = await impl.prepare(step.op, input);
    const base = { op: step.op, impl: step.impl, keyType: step.keyType };
    if (isUnavailable(prepared)) {
      rows.push({ ...base, opsPerSec: null, usPerOp: null, backend: '', unavailable: prepared.unavailable });
    } else {
      const m = await measure(prepared, o.seconds, s.tick);
      rows.push({ ...base, opsPerSec: m.opsPerSec, usPerOp: m.usPerOp, backend: prepared.backend });
    }
    s.end();
  }
  progress.finish();

  return {
    rows,
    ...(speed && !('unavailable' in speed) ? { openssl: speed } : {}),
    environment: {
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      platform: `${process.platform}/${process.arch}`,
      date: new Date().toISOString(),
    },
  };
}
