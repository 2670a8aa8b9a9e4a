// Typed door to the WASM batch issuer (wasm/assembly/issue-batch.ts): packs the CA, the policy,
// the serials and the PEM CSRs into the one parameter block the module reads, and turns the
// output table into per-item results. The block layout is documented at the top of
// wasm/assembly/issue-batch.ts; HEADER and the offsets below must match it.
import { Buffer } from 'node:buffer';
import { wasm } from './instance.js';
import { wasmCsrResultError } from './parse.js';

export interface WasmIssueBatchParams {
  sigAlg: 'ecdsa-with-SHA256' | 'Ed25519';
  /** The CA's P-256 private scalar or Ed25519 seed (32 bytes). */
  privateKey: Uint8Array;
  /** The CA certificate's subject Name DER, byte-exact. */
  issuerNameDer: Uint8Array;
  /** The CA's subjectKeyIdentifier (the leaves' authorityKeyIdentifier); empty: the CA has none, no AKI. */
  issuerSki: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  keyUsageMask: number;
  extKeyUsageMask: number;
  isCA?: boolean | undefined;
  /** One 16-byte unsigned big-endian serial per request. */
  serials: readonly Uint8Array[];
  /** PEM CSRs (strings are UTF-8 encoded, as parseCsr does). */
  requests: ReadonlyArray<string | Uint8Array>;
}

export type WasmIssueBatchItem =
  | { status: 'ok'; der: Uint8Array }
  /** Parse or proof-of-possession failure: the single path's CryptoError text. */
  | { status: 'error'; message: string }
  /** Not handled by the batch (key/signature algorithm, encodings, build or sign failure): issue it singly. */
  | { status: 'single' };

const HEADER = 76;
const SERIAL_LEN = 16;
const SIG_ALGS = { 'ecdsa-with-SHA256': 1, Ed25519: 4 } as const;
const ST_OK = 0;
const ST_PARSE = 1;
const ST_VERIFY = 3;
const VERIFY_MESSAGES: Readonly<Record<number, string>> = { 1: 'x509: ECDSA verification failure', 2: 'x509: Ed25519 verification failure' };
const ERRORS: Readonly<Record<number, string>> = {
  [-1]: 'issue batch: malformed parameter block',
  [-2]: 'issue batch: CA private key must be 32 bytes and valid',
  [-3]: 'issue batch: unsupported signature algorithm or too many requests',
};

/** Requests per call into the module: bounds the arena (a few KiB per certificate). */
export const WASM_BATCH_MAX = 256;

/** Issues up to WASM_BATCH_MAX certificates in one call. */
export function wasmIssueBatch(p: WasmIssueBatchParams): WasmIssueBatchItem[] {
  const n = p.requests.length;
  if (n > WASM_BATCH_MAX) throw new RangeError(`issue batch: at most ${WASM_BATCH_MAX} requests per call`);
  if (p.serials.length !== n) throw new RangeError('issue batch: one serial per request');
  if (p.privateKey.length !== 32) throw new RangeError(ERRORS[-2]);
  if (n === 0) return [];
  const pems = p.requests.map((r) => (typeof r === 'string' ? Buffer.from(r, 'utf8') : r));
  let total = HEADER + 32 + p.issuerNameDer.length + p.issuerSki.length + n * (SERIAL_LEN + 8);
  for (const b of pems) total += b.length;

  const w = wasm();
  w.reset();
  const ptr = w.alloc(total);
  const mem = new Uint8Array(w.memory.buffer, ptr, total);
  const dv = new DataView(w.memory.buffer, ptr, total);
  dv.setUint32(0, SIG_ALGS[p.sigAlg], true);
  dv.setUint32(4, n, true);
  dv.setFloat64(8, Math.floor(p.notBefore.getTime() / 1000), true);
  dv.setFloat64(16, Math.floor(p.notAfter.getTime() / 1000), true);
  dv.setUint32(24, p.keyUsageMask, true);
  dv.setUint32(28, p.extKeyUsageMask, true);
  dv.setUint32(32, p.isCA ? 1 : 0, true);
  let off = HEADER;
  const field = (at: number, bytes: Uint8Array): void => {
    dv.setUint32(at, off, true);
    dv.setUint32(at + 4, bytes.length, true);
    mem.set(bytes, off);
    off += bytes.length;
  };
  field(36, p.privateKey);
  field(44, p.issuerNameDer);
  field(52, p.issuerSki);
  dv.setUint32(60, off, true);
  dv.setUint32(64, n * SERIAL_LEN, true);
  p.serials.forEach((s, i) => {
    if (s.length !== SERIAL_LEN) throw new RangeError(`issue batch: serial ${i} must be ${SERIAL_LEN} bytes`);
    mem.set(s, off + i * SERIAL_LEN);
  });
  off += n * SERIAL_LEN;
  const table = off;
  dv.setUint32(68, table, true);
  dv.setUint32(72, n * 8, true);
  off += n * 8;
  pems.forEach((b, i) => {
    dv.setUint32(table + i * 8, off, true);
    dv.setUint32(table + i * 8 + 4, b.length, true);
    mem.set(b, off);
    off += b.length;
  });

  const out = (w['issueBatch'] as (a: number, b: number) => number)(ptr, total);
  new Uint8Array(w.memory.buffer, ptr + HEADER, 32).fill(0); // the CA key copy (block offset HEADER)
  if (out < 0) throw new RangeError(ERRORS[out] ?? `issue batch failed (${out})`);
  // Views taken after the call: the module may have grown memory.
  const u = new Uint32Array(w.memory.buffer);
  const all = new Uint8Array(w.memory.buffer);
  const items: WasmIssueBatchItem[] = [];
  for (let i = 0; i < n; i++) {
    const at = (out >>> 2) + i * 3;
    const status = u[at]!, a = u[at + 1]!, b = u[at + 2]!;
    if (status === ST_OK) items.push({ status: 'ok', der: all.slice(a, a + b) });
    else if (status === ST_PARSE) items.push({ status: 'error', message: wasmCsrResultError(a) });
    else if (status === ST_VERIFY) items.push({ status: 'error', message: VERIFY_MESSAGES[a]! });
    else items.push({ status: 'single' });
  }
  return items;
}
