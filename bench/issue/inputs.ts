// Everything a run needs, made before anything is timed: a CA of the chosen key type (given to
// plat's cluster signer and to cfssl alike) and one fresh key and CSR per timed certificate. Keys
// are generated asynchronously on libuv's thread pool, since RSA-2048 keys take tens of
// milliseconds each; the warm-up's CSRs (each of its own name, so each a request of its own) share
// WARMUP_KEYS keys, so that thousands of warm-up certificates do not cost minutes of RSA keys.
import { generateKeyPair as generateKeyPairAsync, type KeyObject } from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { createCertificate, createCsr, generateKeyPair } from '../../core/crypto/index.js';
import { KEY_TYPES, type BenchKeyType } from './options.js';

const generate = promisify(generateKeyPairAsync) as (type: string, options?: object) => Promise<{ publicKey: KeyObject; privateKey: KeyObject }>;

export interface BenchCsr {
  readonly name: string;
  /** PEM CERTIFICATE REQUEST. */
  readonly pem: string;
  /** The key's SubjectPublicKeyInfo DER, to check the certificate carries it. */
  readonly spki: Buffer;
}

export interface BenchCa {
  readonly certificatePem: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
}

export interface IssueInputs {
  readonly keyType: BenchKeyType;
  readonly ca: BenchCa;
  /** Signed by cfssl once to see that it is up (never sent to plat). */
  readonly probe: BenchCsr;
  readonly warmup: readonly BenchCsr[];
  readonly csrs: readonly BenchCsr[];
}

function newKey(keyType: BenchKeyType): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  switch (keyType) {
    case 'p256': return generate('ec', { namedCurve: 'prime256v1' });
    case 'ed25519': return generate('ed25519');
    case 'rsa2048': return generate('rsa', { modulusLength: 2048, publicExponent: 65537 });
  }
}

export const WARMUP_KEYS = 64;

async function makeCsr(keyType: BenchKeyType, name: string, key?: { publicKey: KeyObject; privateKey: KeyObject }): Promise<BenchCsr> {
  const { publicKey, privateKey } = key ?? await newKey(keyType);
  const pem = createCsr({ subject: { commonName: name, organizations: ['plat-bench'] }, privateKey });
  return { name, pem, spki: publicKey.export({ type: 'spki', format: 'der' }) };
}

async function makeCsrs(keyType: BenchKeyType, names: readonly string[], onProgress?: (done: number) => void): Promise<BenchCsr[]> {
  const out: BenchCsr[] = new Array(names.length);
  let next = 0;
  let done = 0;
  const width = Math.max(2, os.availableParallelism() * 2);
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < names.length) {
      const i = next++;
      out[i] = await makeCsr(keyType, names[i]!);
      if (++done % 500 === 0) onProgress?.(done);
    }
  }));
  return out;
}

export function makeCa(keyType: BenchKeyType, now = new Date()): BenchCa {
  const key = generateKeyPair(KEY_TYPES[keyType]);
  const { certificatePem } = createCertificate({
    template: {
      subject: { commonName: `plat-bench-ca-${keyType}` },
      notBefore: new Date(now.getTime() - 5 * 60_000),
      notAfter: new Date(now.getTime() + 10 * 365 * 86_400_000),
      isCA: true,
      keyUsage: ['digital signature', 'cert sign', 'crl sign'],
    },
    publicKey: key.keyObject,
    signer: key.keyObject,
  });
  return { certificatePem, privateKeyPem: key.privateKeyPem };
}

async function makeWarmupCsrs(keyType: BenchKeyType, count: number): Promise<BenchCsr[]> {
  const keys = await Promise.all(Array.from({ length: Math.min(count, WARMUP_KEYS) }, () => newKey(keyType)));
  return Promise.all(Array.from({ length: count }, (_, i) => makeCsr(keyType, `warmup-${i}`, keys[i % keys.length])));
}

export async function makeInputs(keyType: BenchKeyType, counts: { csrs: number; warmup: number }, onProgress?: (done: number) => void): Promise<IssueInputs> {
  const warmup = await makeWarmupCsrs(keyType, counts.warmup);
  const csrs = await makeCsrs(keyType, Array.from({ length: counts.csrs }, (_, i) => `issue-${i}`), onProgress);
  return { keyType, ca: makeCa(keyType), probe: await makeCsr(keyType, 'probe'), warmup, csrs };
}
