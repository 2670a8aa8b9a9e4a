// One `plat bench issue` run: inputs made first, then for each key type plat and then cfssl, each
// with a warm-up and a timed phase over the same CSRs at the same concurrency, each checked
// afterwards (every CSR issued, once, with its own key, by the run's CA). A failure of plat is
// an error; cfssl missing or unable to use the CA is reported and its side left empty.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { issueCertificate } from '../../core/crypto/index.js';
import { CertificateChecker } from './check.js';
import { CfsslCannotSign, CfsslCannotStore, probeCfssl, startCfssl, type CfsslMode } from './cfssl-target.js';
import { makeInputs, WARMUP_KEYS, type BenchCsr, type IssueInputs } from './inputs.js';
import { inParallel, timedPhase, type PhaseNumbers } from './measure.js';
import { KEY_LABEL, LIFETIME_HOURS, SIGNER, USAGES, type BenchKeyType, type ControllerMode, type IssueBenchOptions } from './options.js';
import { PlatDriver, type CsrObject } from './plat-driver.js';
import { startPlat, type PlatTarget, type PlatTargetOptions } from './plat-target.js';

export interface Verification {
  /** CSRs with a certificate that passed every check. */
  readonly verified: number;
  /** Every CSR issued, each exactly once (plat: the certificate never changed once set). */
  readonly issuedOnce: boolean;
  readonly problems: readonly string[];
}

/** Mean milliseconds of each stage of plat's flow over the timed phase. */
export interface StageMeans { readonly createMs: number; readonly approveMs: number; readonly issueMs: number }

/**
 * `--stages`: the three writes of a certificate measured one kind at a time against a second
 * `plat all` without a signing controller (the same CSRs, the benchmark's watch open): the load
 * generator's create and approval, then the status write a signing controller makes, sent by the
 * benchmark over HTTPS with certificates it issued beforehand (core/crypto, the same CA and
 * policy). Each PhaseNumbers counts requests where the full run counts certificates.
 */
export interface StageCpu { readonly create: PhaseNumbers; readonly approve: PhaseNumbers; readonly status: PhaseNumbers }

export interface TargetResult {
  readonly available: boolean;
  /** Why it was not measured. */
  readonly reason?: string;
  readonly numbers?: PhaseNumbers;
  readonly stages?: StageMeans;
  readonly stageCpu?: StageCpu;
  readonly verification?: Verification;
}

export interface KeyTypeRun {
  readonly keyType: BenchKeyType;
  readonly plat: TargetResult;
  /** cfssl serve as issue 6 names it: plain HTTP, nothing stored. */
  readonly cfssl: TargetResult;
  /** plat certs/s over cfssl certs/s: issue 6's ratio. */
  readonly ratio: number | null;
  /** cfssl serve with HTTPS, client certificates and its certificate database (`--cfssl-stored`). */
  readonly cfsslStored: TargetResult;
  /** plat certs/s over stored cfssl's. */
  readonly storedRatio: number | null;
}

export interface IssueBenchResult {
  readonly environment: { node: string; cpus: number; cpu: string; platform: string; date: string; loadAverage: number[] };
  readonly config: {
    csrs: number; concurrency: number; warmup: number; signer: string; usages: string[]; lifetimeHours: number;
  };
  readonly plat: {
    setup: string; controller: ControllerMode; apiQps: number; apiBurst: number; stages: boolean;
  };
  readonly cfssl: { setup: string; storedSetup: string | null; version: string | null };
  readonly runs: KeyTypeRun[];
}

const PLAT_SETUP = 'plat all (a process of its own) on LMDB in a fresh data dir; HTTPS, HTTP/1.1 keep-alive, the admin\'s client certificate; '
  + 'POST the CSR, PUT /approval with an Approved condition, wait on one watch for status.certificate';
const CFSSL_SETUP = 'cfssl serve on 127.0.0.1 over plain HTTP (its usual mode: no TLS, no client authentication, no storage), -loglevel 2; '
  + 'POST /api/v1/cfssl/sign with the same CSRs, a default profile with the same usages and lifetime, the same CA';
const CFSSL_STORED_SETUP = 'cfssl serve as above, with HTTPS (-tls-cert/-tls-key, a P-256 serving certificate), a client certificate required '
  + '(-mutual-tls-ca) and its certificate database (-db-config: sqlite3 in a fresh file, sqlite\'s defaults: each certificate committed, '
  + 'with fsync, before the answer)';

/**
 * A `plat all` of its own (fresh data dir, the run's CA) and a driver with its watch open for
 * `fn`; everything is stopped and removed afterwards, and a failure carries the servers' output.
 */
async function withPlat<T>(o: IssueBenchOptions, inputs: IssueInputs, label: string, extra: Pick<PlatTargetOptions, 'cpuProfDir' | 'withoutSigning'>,
  fn: (target: PlatTarget, driver: PlatDriver) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-bench-issue-'));
  const target = await startPlat({ dataDir: dir, ca: inputs.ca, controller: o.controller, qps: o.apiQps, burst: o.apiBurst, ...extra });
  let driver: PlatDriver | undefined;
  try {
    driver = await PlatDriver.open(target.connection, o.concurrency);
    return await fn(target, driver);
  } catch (e) {
    throw new Error(`${label}: ${(e as Error).message}\n${target.output()}`);
  } finally {
    await driver?.close();
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function measurePlat(o: IssueBenchOptions, inputs: IssueInputs, say: (l: string) => void): Promise<TargetResult> {
  return withPlat(o, inputs, 'plat', o.cpuProfDir ? { cpuProfDir: o.cpuProfDir } : {}, async (target, d) => {
    say(`plat: ${inputs.warmup.length} warm-up certificates`);
    await inParallel(inputs.warmup.length, o.concurrency, async (i) => { await d.issue(inputs.warmup[i]!); });
    say(`plat: ${inputs.csrs.length} timed certificates`);
    const sums = { createMs: 0, approveMs: 0, issueMs: 0 };
    const numbers = await timedPhase(inputs.csrs.length, o.concurrency, () => target.pids(), { eventLoops: true }, async (i) => {
      const t = await d.issue(inputs.csrs[i]!);
      sums.createMs += t.createMs;
      sums.approveMs += t.approveMs;
      sums.issueMs += t.issueMs;
    });
    const n = inputs.csrs.length;
    const stages = { createMs: sums.createMs / n, approveMs: sums.approveMs / n, issueMs: sums.issueMs / n };

    const stored = await d.stored();
    const checker = new CertificateChecker(inputs.ca.certificatePem);
    const problems: string[] = [];
    let sameAsWatched = true;
    for (const csr of inputs.csrs) {
      const obj = stored.get(csr.name);
      const pem = obj?.status?.certificate ? Buffer.from(obj.status.certificate, 'base64').toString('utf8') : undefined;
      if (pem !== d.certificate(csr.name)) {
        sameAsWatched = false;
        if (problems.length < 10) problems.push(`${csr.name}: the stored certificate is not the one the watch showed`);
      }
      if (obj?.status?.conditions?.some((c) => c.type === 'Failed') && problems.length < 10) problems.push(`${csr.name}: has a Failed condition`);
      checker.check(csr, pem);
    }
    const summary = checker.summary();
    if (d.reissued > 0) problems.push(`${d.reissued} certificates were replaced after being set`);
    return {
      available: true, numbers, stages,
      verification: {
        verified: summary.verified,
        issuedOnce: summary.verified === inputs.csrs.length && d.reissued === 0 && sameAsWatched && problems.length === 0,
        problems: [...problems, ...summary.problems],
      },
    };
  });
}

/** `--stages`: creates, then approvals, then status writes, each a timed phase of its own. */
function measurePlatStages(o: IssueBenchOptions, inputs: IssueInputs, say: (l: string) => void): Promise<StageCpu> {
  // its profiles go to a folder of their own: they hold the three kinds of writes alone.
  const prof = o.cpuProfDir ? { cpuProfDir: path.join(o.cpuProfDir, 'stages') } : {};
  return withPlat(o, inputs, 'plat stages', { withoutSigning: true, ...prof }, async (target, d) => {
    const timed = (what: string, csrs: readonly BenchCsr[], op: (csr: BenchCsr) => Promise<void>): Promise<PhaseNumbers> => {
      say(`plat stages: ${csrs.length} ${what}`);
      return timedPhase(csrs.length, o.concurrency, () => target.pids(), { eventLoops: true }, (i) => op(csrs[i]!));
    };
    const objects = new Map<string, CsrObject>();
    const certificates = new Map<string, string>();
    const create = async (csr: BenchCsr) => { objects.set(csr.name, await d.create(csr)); };
    const approve = async (csr: BenchCsr) => { objects.set(csr.name, await d.approve(objects.get(csr.name)!)); };
    const writeStatus = (csr: BenchCsr) => d.writeStatus(objects.get(csr.name)!, certificates.get(csr.name)!);
    const now = Date.now();
    const policy = { usages: USAGES, notBefore: new Date(now - 5 * 60_000), notAfter: new Date(now + LIFETIME_HOURS * 3_600_000) };
    const ca = { certificatePem: inputs.ca.certificatePem, privateKey: inputs.ca.privateKeyPem };
    for (const csr of [...inputs.warmup, ...inputs.csrs]) certificates.set(csr.name, issueCertificate(csr.pem, ca, policy).certificatePem);

    await timed('warm-up creates', inputs.warmup, create);
    await timed('warm-up approvals', inputs.warmup, approve);
    await timed('warm-up status writes', inputs.warmup, writeStatus);
    return {
      create: await timed('creates', inputs.csrs, create),
      approve: await timed('approvals', inputs.csrs, approve),
      status: await timed('status writes', inputs.csrs, writeStatus),
    };
  });
}

async function measureCfssl(o: IssueBenchOptions, inputs: IssueInputs, mode: CfsslMode, say: (l: string) => void): Promise<TargetResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-bench-cfssl-'));
  try {
    let target;
    try {
      target = await startCfssl({ bin: o.cfssl, dir, ca: inputs.ca, concurrency: o.concurrency, probeCsr: inputs.probe, mode });
    } catch (e) {
      if (e instanceof CfsslCannotSign) return { available: false, reason: `cfssl cannot sign with an ${KEY_LABEL[inputs.keyType]} CA: ${e.message}` };
      if (e instanceof CfsslCannotStore) return { available: false, reason: e.message };
      throw e;
    }
    try {
      say(`cfssl: ${inputs.warmup.length} warm-up certificates`);
      await inParallel(inputs.warmup.length, o.concurrency, async (i) => { await target.sign(inputs.warmup[i]!); });
      say(`cfssl: ${inputs.csrs.length} timed certificates`);
      const pems: string[] = new Array(inputs.csrs.length);
      const numbers = await timedPhase(inputs.csrs.length, o.concurrency, () => [target.pid()], {}, async (i) => {
        pems[i] = await target.sign(inputs.csrs[i]!);
      });
      const checker = new CertificateChecker(inputs.ca.certificatePem);
      inputs.csrs.forEach((csr, i) => checker.check(csr, pems[i]));
      const summary = checker.summary();
      // stored: every certificate answered is in its database (the probe and the warm-up too).
      const stored = target.storedCount();
      const signed = 1 + inputs.warmup.length + inputs.csrs.length;
      const problems = stored === null || stored === signed ? summary.problems : [`its database holds ${stored} certificates, ${signed} were signed`, ...summary.problems];
      return {
        available: true, numbers,
        verification: { verified: summary.verified, issuedOnce: summary.verified === inputs.csrs.length && problems.length === 0, problems },
      };
    } finally {
      await target.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runIssueBench(o: IssueBenchOptions): Promise<IssueBenchResult> {
  const say = o.log ?? (() => {});
  // Before the run: what the machine was already doing (it is shared).
  const loadAverage = os.loadavg().map((v) => Math.round(v * 100) / 100);
  const cfssl = probeCfssl(o.cfssl);
  if (!cfssl.found) say(`cfssl: ${cfssl.reason}`);
  const runs: KeyTypeRun[] = [];
  for (const keyType of o.keyTypes) {
    say(`${keyType}: making a CA, ${o.csrs + Math.min(o.warmup, WARMUP_KEYS)} keys and ${o.csrs + o.warmup} CSRs`);
    const inputs = await makeInputs(keyType, { csrs: o.csrs, warmup: o.warmup }, (n) => say(`${keyType}: ${n} keys`));
    say(`${keyType}: plat all (signing controller: ${o.controller}, --plat-api-qps ${o.apiQps} --plat-api-burst ${o.apiBurst})`);
    const measured = await measurePlat(o, inputs, (l) => say(`${keyType}: ${l}`));
    const plat = o.stages ? { ...measured, stageCpu: await measurePlatStages(o, inputs, (l) => say(`${keyType}: ${l}`)) } : measured;
    const peer = (mode: CfsslMode): Promise<TargetResult> => (cfssl.found
      ? measureCfssl(o, inputs, mode, (l) => say(`${keyType}: ${l}`))
      : Promise.resolve({ available: false, reason: cfssl.reason }));
    const plain = await peer('plain');
    const stored = o.cfsslStored ? await peer('stored') : { available: false, reason: 'skipped (--cfssl-stored=false)' };
    const ratio = (t: TargetResult) => (plat.numbers && t.numbers && t.numbers.certsPerSec > 0 ? plat.numbers.certsPerSec / t.numbers.certsPerSec : null);
    runs.push({ keyType, plat, cfssl: plain, ratio: ratio(plain), cfsslStored: stored, storedRatio: ratio(stored) });
  }
  const cpus = os.cpus();
  return {
    environment: {
      node: process.version, cpus: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown', platform: `${os.platform()}/${os.arch()}`,
      date: new Date().toISOString(), loadAverage,
    },
    config: { csrs: o.csrs, concurrency: o.concurrency, warmup: o.warmup, signer: SIGNER, usages: [...USAGES], lifetimeHours: LIFETIME_HOURS },
    plat: { setup: PLAT_SETUP, controller: o.controller, apiQps: o.apiQps, apiBurst: o.apiBurst, stages: o.stages ?? false },
    cfssl: { setup: CFSSL_SETUP, storedSetup: o.cfsslStored ? CFSSL_STORED_SETUP : null, version: cfssl.found ? cfssl.version : null },
    runs,
  };
}
