// Typed doors to the WASM SHA-2 and HMAC (wasm/assembly/sha2.ts): copy in, hash, copy out.
import { put, take, wasm } from './instance.js';

type Digest = (input: number, len: number, out: number) => void;
type Hmac = (key: number, keyLen: number, msg: number, msgLen: number, out: number) => void;
type HmacParts = (key: number, keyLen: number, a: number, aLen: number, b: number, bLen: number,
  c: number, cLen: number, out: number) => void;

function digest(name: string, size: number, data: Uint8Array): Uint8Array {
  const w = wasm();
  w.reset();
  const input = put(data);
  const out = w.alloc(size);
  (w[name] as Digest)(input, data.length, out);
  return take(out, size);
}

function hmac(name: string, size: number, key: Uint8Array, data: Uint8Array): Uint8Array {
  const w = wasm();
  w.reset();
  const k = put(key);
  const m = put(data);
  const out = w.alloc(size);
  (w[name] as Hmac)(k, key.length, m, data.length, out);
  return take(out, size);
}

export function wasmSha256(data: Uint8Array): Uint8Array { return digest('sha256', 32, data); }
export function wasmSha384(data: Uint8Array): Uint8Array { return digest('sha384', 48, data); }
export function wasmSha512(data: Uint8Array): Uint8Array { return digest('sha512', 64, data); }

export function wasmHmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array { return hmac('hmacSha256', 32, key, data); }
export function wasmHmacSha384(key: Uint8Array, data: Uint8Array): Uint8Array { return hmac('hmacSha384', 48, key, data); }
export function wasmHmacSha512(key: Uint8Array, data: Uint8Array): Uint8Array { return hmac('hmacSha512', 64, key, data); }

/** HMAC-SHA-256 over a || b || c without concatenating in JS (the RFC 6979 shape). */
export function wasmHmacSha256Parts(key: Uint8Array, a: Uint8Array, b: Uint8Array, c: Uint8Array): Uint8Array {
  const w = wasm();
  w.reset();
  const k = put(key), pa = put(a), pb = put(b), pc = put(c);
  const out = w.alloc(32);
  (w['hmacSha256Parts'] as HmacParts)(k, key.length, pa, a.length, pb, b.length, pc, c.length, out);
  return take(out, 32);
}
