// OpenSSL's own figures for the same primitives, read from `openssl speed` in the same run: ECDSA
// P-256 and Ed25519 sign/s and verify/s on one core. They are the reference of issue 3's targets
// (the issue limit is 1 / (1/sign + 1/verify): one CSR verify plus one certificate signature).
import { spawn } from 'node:child_process';
import type { BenchKeyType, Unavailable } from './impl.js';

export interface OpensslRates {
  sign: number;
  verify: number;
}

export interface OpensslSpeed {
  /** e.g. 'OpenSSL 3.0.19' */
  version: string;
  /** Seconds per figure (openssl speed takes whole seconds). */
  seconds: number;
  rates: Partial<Record<BenchKeyType, OpensslRates>>;
}

const ALGORITHMS: Readonly<Record<BenchKeyType, { arg: string; line: RegExp }>> = {
  p256: { arg: 'ecdsap256', line: /^\s*256 bits ecdsa \(nistp256\)\s+\S+s\s+\S+s\s+([\d.]+)\s+([\d.]+)\s*$/m },
  ed25519: { arg: 'ed25519', line: /^\s*253 bits EdDSA \(Ed25519\)\s+\S+s\s+\S+s\s+([\d.]+)\s+([\d.]+)\s*$/m },
};

/** `openssl speed` takes whole seconds: at least 1. */
export function opensslSeconds(seconds: number): number {
  return Math.max(1, Math.round(seconds));
}

/** Seconds `opensslSpeed` will take: a sign and a verify figure per key type. */
export function opensslDuration(seconds: number, keyTypes: readonly BenchKeyType[]): number {
  return 2 * keyTypes.length * opensslSeconds(seconds);
}

/** The rates parsed from `openssl speed` output (exported for tests of other OpenSSL versions' layouts). */
export function parseOpensslSpeed(stdout: string, keyTypes: readonly BenchKeyType[]): Partial<Record<BenchKeyType, OpensslRates>> {
  const rates: Partial<Record<BenchKeyType, OpensslRates>> = {};
  for (const k of keyTypes) {
    const m = ALGORITHMS[k].line.exec(stdout);
    if (m) rates[k] = { sign: Number(m[1]), verify: Number(m[2]) };
  }
  return rates;
}

/** Runs `openssl speed -seconds N` for `keyTypes`; `tick` gets the estimated fraction done. */
export function opensslSpeed(seconds: number, keyTypes: readonly BenchKeyType[], tick?: (fraction: number) => void): Promise<OpensslSpeed | Unavailable> {
  const secs = opensslSeconds(seconds);
  const expected = opensslDuration(seconds, keyTypes) * 1000;
  return new Promise((resolve) => {
    const child = spawn('openssl', ['speed', '-seconds', String(secs), ...keyTypes.map((k) => ALGORITHMS[k].arg)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const start = Date.now();
    const timer = tick ? setInterval(() => tick(Math.min(0.99, (Date.now() - start) / expected)), 100) : undefined;
    const done = (r: OpensslSpeed | Unavailable) => { if (timer) clearInterval(timer); resolve(r); };
    child.on('error', (e: NodeJS.ErrnoException) => done({ unavailable: e.code === 'ENOENT' ? 'openssl not found on PATH' : e.message }));
    child.on('close', (code) => {
      if (code !== 0) return done({ unavailable: `openssl speed exited with ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}` });
      const rates = parseOpensslSpeed(stdout, keyTypes);
      if (Object.keys(rates).length === 0) return done({ unavailable: 'could not read the figures from openssl speed output' });
      const version = /^version: (\S+)/m.exec(stdout)?.[1];
      done({ version: version ? `OpenSSL ${version}` : 'OpenSSL', seconds: secs, rates });
    });
  });
}

/** Certificates per second one core can issue if it only verified the CSR and signed: 1 / (1/sign + 1/verify). */
export function issueLimit(r: OpensslRates): number {
  return 1 / (1 / r.sign + 1 / r.verify);
}
