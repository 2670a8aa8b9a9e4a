// DER writer: every function returns the complete encoding of one element, so builders read like the
// ASN.1 they produce. Lengths are always minimal; SET OF elements are sorted as X.690 §11.6 requires.
import { TAG } from './der.js';

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function tlv(identifier: number, content: Uint8Array): Uint8Array {
  const len = content.length;
  let header: number[];
  if (len < 0x80) {
    header = [identifier, len];
  } else {
    const bytes: number[] = [];
    for (let v = len; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    header = [identifier, 0x80 | bytes.length, ...bytes];
  }
  const out = new Uint8Array(header.length + len);
  out.set(header, 0);
  out.set(content, header.length);
  return out;
}

export const seq = (...parts: Uint8Array[]): Uint8Array => tlv(TAG.SEQUENCE, concat(parts));

/** SET OF: elements sorted by their encodings. */
export function setOf(...parts: Uint8Array[]): Uint8Array {
  const sorted = [...parts].sort(compareBytes);
  return tlv(TAG.SET, concat(sorted));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** [n] EXPLICIT wrapper. */
export const explicit = (n: number, inner: Uint8Array): Uint8Array => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from an unsigned big-endian magnitude: leading zeros stripped, 0x00 added when the top bit is set. */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  let body = magnitude.subarray(i);
  if (body.length === 0) body = new Uint8Array([0]);
  if (body[0]! & 0x80) body = concat([new Uint8Array([0]), body]);
  return tlv(TAG.INTEGER, body);
}

export function smallInteger(n: number): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`integer out of range: ${n}`);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return unsignedInteger(new Uint8Array(bytes));
}

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map((p) => {
    if (!/^\d+$/.test(p)) throw new RangeError(`invalid OID: ${dotted}`);
    return Number(p);
  });
  if (parts.length < 2 || parts[0]! > 2 || (parts[0]! < 2 && parts[1]! > 39)) throw new RangeError(`invalid OID: ${dotted}`);
  const arcs = [parts[0]! * 40 + parts[1]!, ...parts.slice(2)];
  const out: number[] = [];
  for (const arc of arcs) {
    if (!Number.isSafeInteger(arc)) throw new RangeError(`invalid OID: ${dotted}`);
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(TAG.OID, new Uint8Array(out));
}

export const bitString = (bytes: Uint8Array, unusedBits = 0): Uint8Array =>
  tlv(TAG.BIT_STRING, concat([new Uint8Array([unusedBits]), bytes]));

export const octetString = (bytes: Uint8Array): Uint8Array => tlv(TAG.OCTET_STRING, bytes);

export const boolean = (v: boolean): Uint8Array => tlv(TAG.BOOLEAN, new Uint8Array([v ? 0xff : 0x00]));

export const NULL = new Uint8Array([TAG.NULL, 0]);

const encoder = new TextEncoder();

export const utf8String = (s: string): Uint8Array => tlv(TAG.UTF8String, encoder.encode(s));

export const ia5String = (s: string): Uint8Array => tlv(TAG.IA5String, latin1(s, 0x7f));

export const printableString = (s: string): Uint8Array => tlv(TAG.PrintableString, latin1(s, 0x7f));

function latin1(s: string, max: number): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > max) throw new RangeError(`character not allowed in ASN.1 string: ${JSON.stringify(s)}`);
    out[i] = c;
  }
  return out;
}

/** RFC 5280 §4.1.2.5: UTCTime for 1950..2049, GeneralizedTime otherwise; whole seconds, Z. */
export function time(d: Date): Uint8Array {
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid date');
  const y = d.getUTCFullYear();
  const two = (n: number): string => String(n).padStart(2, '0');
  const rest = `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}Z`;
  if (y >= 1950 && y < 2050) return tlv(TAG.UTCTime, latin1(`${two(y % 100)}${rest}`, 0x7f));
  if (y < 0 || y > 9999) throw new RangeError('date out of range for X.509');
  return tlv(TAG.GeneralizedTime, latin1(`${String(y).padStart(4, '0')}${rest}`, 0x7f));
}
