// A small strict DER reader. Strict means: no indefinite lengths, no non-minimal lengths or tags, no
// reads past the end of the enclosing element. Error texts copy Go's encoding/asn1 so that they can be
// passed through verbatim where Kubernetes passes Go's through (spec k8s-behaviour §1.2 item 2).
import { CryptoError } from './errors.js';

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8String: 0x0c,
  NumericString: 0x12,
  PrintableString: 0x13,
  T61String: 0x14,
  IA5String: 0x16,
  UTCTime: 0x17,
  GeneralizedTime: 0x18,
  BMPString: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

export interface Tlv {
  /** 0 universal, 1 application, 2 context-specific, 3 private. */
  readonly cls: number;
  readonly constructed: boolean;
  /** Tag number. */
  readonly num: number;
  /** Offset of the identifier octet. */
  readonly start: number;
  readonly contentStart: number;
  /** Offset just after the content. */
  readonly end: number;
}

const syntax = (msg: string): CryptoError => new CryptoError(`asn1: syntax error: ${msg}`);
const structure = (msg: string): CryptoError => new CryptoError(`asn1: structure error: ${msg}`);

/** The identifier octet of a low-number tag (what `TAG` holds), or -1 for high tag numbers. */
export function identifierOf(t: Tlv): number {
  return t.num < 31 ? (t.cls << 6) | (t.constructed ? 0x20 : 0) | t.num : -1;
}

export function lengthOf(t: Tlv): number {
  return t.end - t.contentStart;
}

/** Reads one TLV header at `offset`; the whole element must end at or before `limit`. */
export function readTlv(buf: Uint8Array, offset: number, limit: number = buf.length): Tlv {
  let p = offset;
  if (p >= limit) throw syntax('data truncated');
  const b0 = buf[p++]!;
  const cls = b0 >> 6;
  const constructed = (b0 & 0x20) !== 0;
  let num = b0 & 0x1f;
  if (num === 0x1f) {
    num = 0;
    let shifted = 0;
    for (;;) {
      // Go's parseBase128Int: at most 5 bytes (35 bits), and the value must fit an int32.
      if (shifted === 5) throw structure('base 128 integer too large');
      if (p >= limit) throw syntax('truncated base 128 integer');
      const b = buf[p++]!;
      if (shifted === 0 && b === 0x80) throw syntax('integer is not minimally encoded');
      shifted++;
      num = num * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (num > 0x7fffffff) throw structure('base 128 integer too large');
    if (num < 0x1f) throw syntax('non-minimal tag');
  }
  if (p >= limit) throw syntax('truncated tag or length');
  const l0 = buf[p++]!;
  let length: number;
  if ((l0 & 0x80) === 0) {
    length = l0;
  } else {
    const count = l0 & 0x7f;
    if (count === 0) throw syntax('indefinite length found (not DER)');
    length = 0;
    for (let i = 0; i < count; i++) {
      if (p >= limit) throw syntax('truncated tag or length');
      if (length >= 1 << 23) throw structure('length too large');
      length = length * 256 + buf[p++]!;
      if (length === 0) throw structure('superfluous leading zeros in length');
    }
    if (length < 0x80) throw structure('non-minimal length');
  }
  if (length > limit - p) throw syntax('data truncated');
  return { cls, constructed, num, start: offset, contentStart: p, end: p + length };
}

// Go prints its (default) field parameters in "tags don't match"; copying the shape keeps messages
// recognisable for people who search for them.
const GO_DEFAULT_PARAMS =
  '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}';

/** Go's "tags don't match" structural error. */
export function tagMismatch(expectedTagNumber: number, t: Tlv, typeName: string, offset: number): CryptoError {
  return structure(
    `tags don't match (${expectedTagNumber} vs {class:${t.cls} tag:${t.num} length:${lengthOf(t)} isCompound:${t.constructed}}) ${GO_DEFAULT_PARAMS} ${typeName} @${offset}`,
  );
}

/** Sequential reader over the elements between `start` and `end` of `buf`. */
export class DerReader {
  private pos: number;

  constructor(
    readonly buf: Uint8Array,
    readonly start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  static of(buf: Uint8Array, t: Tlv): DerReader {
    return new DerReader(buf, t.contentStart, t.end);
  }

  get offset(): number {
    return this.pos;
  }

  get empty(): boolean {
    return this.pos >= this.end;
  }

  /** The next element without consuming it, or undefined at the end. */
  peek(): Tlv | undefined {
    return this.empty ? undefined : readTlv(this.buf, this.pos, this.end);
  }

  /** The next element; Go's "sequence truncated" when a required element is missing. */
  next(): Tlv {
    if (this.empty) throw syntax('sequence truncated');
    const t = readTlv(this.buf, this.pos, this.end);
    this.pos = t.end;
    return t;
  }

  /** The next element, which must carry the given low-number identifier octet. */
  expect(identifier: number, typeName: string): Tlv {
    if (this.empty) throw syntax('sequence truncated');
    const t = readTlv(this.buf, this.pos, this.end);
    if (identifierOf(t) !== identifier) throw tagMismatch(identifier & 0x1f, t, typeName, t.contentStart - this.start);
    this.pos = t.end;
    return t;
  }

  /** Consumes the next element only if it carries `identifier`. */
  optional(identifier: number): Tlv | undefined {
    const t = this.peek();
    if (t === undefined || identifierOf(t) !== identifier) return undefined;
    this.pos = t.end;
    return t;
  }

  content(t: Tlv): Uint8Array {
    return this.buf.subarray(t.contentStart, t.end);
  }

  element(t: Tlv): Uint8Array {
    return this.buf.subarray(t.start, t.end);
  }

  inner(t: Tlv): DerReader {
    return DerReader.of(this.buf, t);
  }

  /** Strictness beyond Go: elements after the last known field are rejected. */
  finish(what: string): void {
    if (!this.empty) throw syntax(`trailing data in ${what}`);
  }
}

/** INTEGER content to bigint, with Go's minimal-encoding checks. */
export function decodeInteger(content: Uint8Array): bigint {
  checkInteger(content);
  let v = 0n;
  for (const b of content) v = (v << 8n) | BigInt(b);
  if (content[0]! & 0x80) v -= 1n << BigInt(content.length * 8);
  return v;
}

/** INTEGER content that must fit an int64, as Go's `int` fields. */
export function decodeInt64(content: Uint8Array): bigint {
  checkInteger(content);
  if (content.length > 8) throw structure('integer too large');
  return decodeInteger(content);
}

function checkInteger(c: Uint8Array): void {
  if (c.length === 0) throw structure('empty integer');
  if (c.length > 1 && ((c[0] === 0 && (c[1]! & 0x80) === 0) || (c[0] === 0xff && (c[1]! & 0x80) === 0x80))) {
    throw structure('integer not minimally-encoded');
  }
}

export function decodeOid(content: Uint8Array): string {
  if (content.length === 0) throw syntax('zero length OBJECT IDENTIFIER');
  const parts: number[] = [];
  let i = 0;
  while (i < content.length) {
    let v = 0;
    let shifted = 0;
    for (;;) {
      if (shifted === 5) throw structure('base 128 integer too large');
      if (i >= content.length) throw syntax('truncated base 128 integer');
      const b = content[i++]!;
      if (shifted === 0 && b === 0x80) throw syntax('integer is not minimally encoded');
      shifted++;
      v = v * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (v > 0x7fffffff) throw structure('base 128 integer too large');
    if (parts.length === 0) {
      if (v < 80) parts.push(Math.floor(v / 40), v % 40);
      else parts.push(2, v - 80);
    } else {
      parts.push(v);
    }
  }
  return parts.join('.');
}

export interface BitString {
  readonly bytes: Uint8Array;
  readonly unusedBits: number;
}

export function decodeBitString(content: Uint8Array): BitString {
  if (content.length === 0) throw syntax('zero length BIT STRING');
  const unused = content[0]!;
  const last = content[content.length - 1]!;
  if (unused > 7 || (content.length === 1 && unused > 0) || (last & ((1 << unused) - 1)) !== 0) {
    throw syntax('invalid padding bits in BIT STRING');
  }
  return { bytes: content.subarray(1), unusedBits: unused };
}

/** Go's BitString.RightAlign: the bits shifted so that the padding is at the front. */
export function rightAlign(bs: BitString): Uint8Array {
  if (bs.unusedBits === 0 || bs.bytes.length === 0) return bs.bytes;
  const shift = bs.unusedBits;
  const out = new Uint8Array(bs.bytes.length);
  out[0] = bs.bytes[0]! >> shift;
  for (let i = 1; i < bs.bytes.length; i++) {
    out[i] = ((bs.bytes[i - 1]! << (8 - shift)) | (bs.bytes[i]! >> shift)) & 0xff;
  }
  return out;
}

export function decodeBoolean(content: Uint8Array): boolean {
  if (content.length !== 1) throw syntax('invalid boolean');
  if (content[0] === 0x00) return false;
  if (content[0] === 0xff) return true;
  throw syntax('invalid boolean');
}

/**
 * UTCTime or GeneralizedTime content: YYMMDDHHMMSS / YYYYMMDDHHMMSS then Z or a +-hhmm offset (Go's
 * reader accepts offsets; what this package writes is always Z).
 */
export function decodeTime(identifier: number, content: Uint8Array): Date {
  const s = String.fromCharCode(...content.subarray(0, 32));
  const m =
    identifier === TAG.UTCTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|[+-]\d{4})$/.exec(s)
      : identifier === TAG.GeneralizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|[+-]\d{4})$/.exec(s)
        : null;
  if (m === null || content.length > 32) throw syntax('invalid time');
  let year = Number(m[1]);
  if (identifier === TAG.UTCTime) year += year < 50 ? 2000 : 1900;
  const [mo, d, h, mi, se] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number];
  // setUTCFullYear, unlike Date.UTC, does not map years below 100 into the 1900s.
  const back = new Date(0);
  back.setUTCFullYear(year, mo - 1, d);
  back.setUTCHours(h, mi, se, 0);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    throw syntax('invalid time');
  }
  const zone = m[7]!;
  if (zone !== 'Z') {
    const offset = (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5))) * 60_000;
    back.setTime(back.getTime() - (zone[0] === '+' ? offset : -offset));
  }
  return back;
}
