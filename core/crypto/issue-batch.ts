// Batch issuing through the facade: many CSRs, one CA, one policy. With a P-256 or Ed25519 CA
// the WASM batch entry point (wasm/assembly/issue-batch.ts) does parse, proof of possession,
// build, sign and assembly for all P-256 and Ed25519 CSRs in one call per chunk (the P-256
// signatures share their modular inversions); every other request, and every request under
// another CA key type, goes through issueCertificate one by one. Results are per item, in order:
// a certificate, or the CryptoError issueCertificate would have thrown for that request.
import { Buffer } from 'node:buffer';
import type { KeyObject } from 'node:crypto';
import { randomSerial } from './serial.js';
import { CryptoError } from './errors.js';
import { encodePem } from './pem.js';
import { issueCertificate, prepareCa, type IssuePolicy, type IssueResult, type IssuingCa, type PreparedCa } from './pipeline.js';
import { keyUsagesFromStrings } from './usages.js';
import { WASM_BATCH_MAX, wasmIssueBatch, type WasmIssueBatchParams } from './wasm/issue-batch.js';
import { masks } from './wasm/x509.js';

export type IssueBatchResult = IssueResult | { readonly error: CryptoError };

export interface IssueBatchOptions {
  /** One 16-byte serial per request (unsigned big-endian, not zero); default 128 random bits each. */
  readonly serialNumbers?: readonly Uint8Array[];
}

const BATCH_BACKEND = { parse: 'wasm', verify: 'wasm', build: 'wasm', sign: 'wasm' } as const;

const rawKeys = new WeakMap<KeyObject, Uint8Array>();
function rawPrivateKey(key: KeyObject): Uint8Array {
  let raw = rawKeys.get(key);
  if (!raw) rawKeys.set(key, (raw = new Uint8Array(Buffer.from(key.export({ format: 'jwk' }).d ?? '', 'base64url'))));
  return raw;
}

/** The batch parameters shared by every request, or undefined when the batch cannot serve this CA/policy. */
function batchSetup(ca: IssuingCa, policy: IssuePolicy): Omit<WasmIssueBatchParams, 'serials' | 'requests'> | undefined {
  let prepared: PreparedCa;
  let ku: number, eku: number;
  try {
    // Any problem here is the single path's to report (in its order, after each CSR's own errors).
    const usages = keyUsagesFromStrings(policy.usages);
    prepared = prepareCa(ca);
    ({ ku, eku } = masks(usages));
  } catch {
    return undefined;
  }
  if (prepared.sigAlg !== 'ecdsa-with-SHA256' && prepared.sigAlg !== 'Ed25519') return undefined;
  const { notBefore, notAfter } = policy;
  if (!(notBefore instanceof Date) || !(notAfter instanceof Date)) return undefined;
  const privateKey = rawPrivateKey(prepared.key);
  if (privateKey.length !== 32) return undefined;
  return {
    sigAlg: prepared.sigAlg, privateKey, issuerNameDer: prepared.issuerName, issuerSki: prepared.issuerSki ?? new Uint8Array(0),
    notBefore, notAfter, keyUsageMask: ku, extKeyUsageMask: eku, isCA: policy.isCA ?? false,
  };
}

/**
 * Issues a certificate for each request (PEM, as a string or bytes) under one CA and policy. The
 * certificates have the same content as issueCertificate's (for the same serial: the same
 * TBSCertificate); an item that fails carries the CryptoError issueCertificate throws for it and
 * does not affect the others. Errors other than CryptoError (bad argument types) are thrown.
 */
export function issueCertificates(requests: ReadonlyArray<string | Uint8Array>, ca: IssuingCa, policy: IssuePolicy,
  options: IssueBatchOptions = {}): IssueBatchResult[] {
  const serials = options.serialNumbers ?? requests.map(randomSerial);
  if (serials.length !== requests.length) throw new RangeError('issueCertificates: one serial number per request');
  for (const s of serials) if (!(s instanceof Uint8Array) || s.length !== 16) throw new RangeError('issueCertificates: serial numbers must be 16 bytes');

  const single = (i: number): IssueBatchResult => {
    try {
      return issueCertificate(requests[i]!, ca, policy, { serialNumber: serials[i]! });
    } catch (e) {
      if (e instanceof CryptoError) return { error: e };
      throw e;
    }
  };
  const out = new Array<IssueBatchResult | undefined>(requests.length);
  const setup = requests.length > 0 ? batchSetup(ca, policy) : undefined;
  if (setup) {
    // Requests the batch can take: PEM text or bytes of a sane size; the rest go singly.
    const idx: number[] = [];
    requests.forEach((r, i) => {
      if ((typeof r === 'string' && r.length <= 1 << 20) || (r instanceof Uint8Array && r.length <= 1 << 20)) idx.push(i);
    });
    for (let c = 0; c < idx.length; c += WASM_BATCH_MAX) {
      const chunk = idx.slice(c, c + WASM_BATCH_MAX);
      const items = wasmIssueBatch({ ...setup, serials: chunk.map((i) => serials[i]!), requests: chunk.map((i) => requests[i]!) });
      items.forEach((item, k) => {
        const i = chunk[k]!;
        if (item.status === 'ok') out[i] = { certificatePem: encodePem('CERTIFICATE', item.der), der: item.der, backend: BATCH_BACKEND };
        else if (item.status === 'error') out[i] = { error: new CryptoError(item.message) };
      });
    }
  }
  return Array.from(out, (r, i) => r ?? single(i));
}
