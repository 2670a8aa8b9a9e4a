// A strict DER reader, just enough to walk a certificate. Kept private to this plugin so that
// client-certificate verification never depends on code being changed elsewhere. Strict on
// purpose: indefinite and non-minimal lengths, high tag numbers and trailing bytes are refused,
// so two parsers (this one and OpenSSL behind X509Certificate) cannot disagree about the bytes.

export const TAG = {
  BOOLEAN: 0x01, INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06,
  UTF8_STRING: 0x0c, NUMERIC_STRING: 0x12, PRINTABLE_STRING: 0x13, T61_STRING: 0x14,
  IA5_STRING: 0x16, UTC_TIME: 0x17, GENERALIZED_TIME: 0x18, BMP_STRING: 0x1e,
  SEQUENCE: 0x30, SET: 0x31,
} as const;

/** Context-specific tag byte: `[n]`, constructed unless `primitive`. */
export const ctx = (n: number, primitive = false): number => (primitive ? 0x80 : 0xa0) | n;

export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

export interface Tlv {
  readonly tag: number;
  /** The whole element, header included (what Go calls Raw). */
  readonly raw: Buffer;
  readonly content: Buffer;
}

export class DerReader {
  #pos: number;
  constructor(private readonly buf: Buffer, start = 0, private readonly end = buf.length) {
    this.#pos = start;
  }

  static of(content: Buffer): DerReader { return new DerReader(content); }

  get done(): boolean { return this.#pos >= this.end; }

  peekTag(): number | undefined { return this.done ? undefined : this.buf[this.#pos]; }

  read(): Tlv {
    const start = this.#pos;
    const tag = this.#byte();
    // High tag numbers never occur in certificates; refusing them keeps the reader tiny.
    if ((tag & 0x1f) === 0x1f) throw new DerError('high tag number form is not supported');
    const first = this.#byte();
    let length: number;
    if (first < 0x80) {
      length = first;
    } else {
      const n = first & 0x7f;
      if (n === 0) throw new DerError('indefinite length is not DER');
      if (n > 4) throw new DerError('length too large');
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + this.#byte();
      if (length < 0x80 || (n > 1 && length < 256 ** (n - 1))) throw new DerError('non-minimal length encoding');
    }
    const contentStart = this.#pos;
    if (length > this.end - contentStart) throw new DerError('truncated element');
    this.#pos = contentStart + length;
    return { tag, raw: this.buf.subarray(start, this.#pos), content: this.buf.subarray(contentStart, this.#pos) };
  }

  expect(tag: number, what: string): Tlv {
    const tlv = this.read();
    if (tlv.tag !== tag) throw new DerError(`${what}: expected tag 0x${tag.toString(16)}, found 0x${tlv.tag.toString(16)}`);
    return tlv;
  }

  /** Reads the element only when the next tag is `tag` (OPTIONAL / DEFAULT fields). */
  optional(tag: number): Tlv | undefined {
    return this.peekTag() === tag ? this.read() : undefined;
  }

  finish(what: string): void {
    if (!this.done) throw new DerError(`${what}: trailing data`);
  }

  #byte(): number {
    if (this.#pos >= this.end) throw new DerError('truncated element');
    return this.buf[this.#pos++]!;
  }
}

export function decodeOid(content: Buffer): string {
  if (content.length === 0) throw new DerError('empty OBJECT IDENTIFIER');
  const arcs: bigint[] = [];
  let value = 0n;
  let fresh = true;
  for (const b of content) {
    if (fresh && b === 0x80) throw new DerError('non-minimal OBJECT IDENTIFIER arc');
    value = (value << 7n) | BigInt(b & 0x7f);
    fresh = (b & 0x80) === 0;
    if (fresh) { arcs.push(value); value = 0n; }
  }
  if (!fresh) throw new DerError('truncated OBJECT IDENTIFIER');
  const head = arcs[0]!;
  const first = head < 40n ? 0n : head < 80n ? 1n : 2n;
  return [first, head - first * 40n, ...arcs.slice(1)].join('.');
}

export function decodeBoolean(content: Buffer): boolean {
  // DER: exactly one byte, 0x00 or 0xff.
  if (content.length !== 1 || (content[0] !== 0x00 && content[0] !== 0xff)) throw new DerError('invalid BOOLEAN');
  return content[0] === 0xff;
}

/** A non-negative INTEGER that fits a JS number; larger values are clamped to MAX_SAFE_INTEGER. */
export function decodeSmallUnsigned(content: Buffer): number {
  if (content.length === 0) throw new DerError('empty INTEGER');
  if ((content[0]! & 0x80) !== 0) throw new DerError('negative INTEGER');
  if (content.length > 1 && content[0] === 0 && (content[1]! & 0x80) === 0) throw new DerError('non-minimal INTEGER');
  let v = 0;
  for (const b of content) v = Math.min(v * 256 + b, Number.MAX_SAFE_INTEGER);
  return v;
}

export function decodeInteger(content: Buffer): bigint {
  if (content.length === 0) throw new DerError('empty INTEGER');
  if (content.length > 1 && ((content[0] === 0 && (content[1]! & 0x80) === 0) || (content[0] === 0xff && (content[1]! & 0x80) !== 0))) {
    throw new DerError('non-minimal INTEGER');
  }
  let v = 0n;
  for (const b of content) v = (v << 8n) | BigInt(b);
  if ((content[0]! & 0x80) !== 0) v -= 1n << BigInt(content.length * 8);
  return v;
}

/** BIT STRING bits, MSB of the first byte being bit 0 (X.509 numbering). */
export function decodeBitString(content: Buffer): { bytes: Buffer; unused: number } {
  if (content.length === 0) throw new DerError('empty BIT STRING');
  const unused = content[0]!;
  const bytes = content.subarray(1);
  if (unused > 7 || (bytes.length === 0 && unused !== 0)) throw new DerError('invalid BIT STRING');
  // DER: the unused bits are zero.
  if (unused > 0 && (bytes[bytes.length - 1]! & ((1 << unused) - 1)) !== 0) throw new DerError('invalid BIT STRING padding');
  return { bytes, unused };
}

/** UTCTime (YYMMDDHHMMSSZ) or GeneralizedTime (YYYYMMDDHHMMSSZ), as milliseconds since the epoch. */
export function decodeTime(tlv: Tlv): number {
  const s = tlv.content.toString('latin1');
  let m: RegExpExecArray | null;
  let year: number;
  if (tlv.tag === TAG.UTC_TIME && (m = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s))) {
    const yy = Number(m[1]);
    // RFC 5280 4.1.2.5.1: YY >= 50 is 19YY, otherwise 20YY.
    year = yy >= 50 ? 1900 + yy : 2000 + yy;
  } else if (tlv.tag === TAG.GENERALIZED_TIME && (m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s))) {
    year = Number(m[1]);
  } else {
    throw new DerError('invalid time');
  }
  const [mo, d, h, mi, se] = [2, 3, 4, 5, 6].map((i) => Number(m![i]));
  const ms = Date.UTC(year, mo! - 1, d!, h!, mi!, se!);
  const back = new Date(ms);
  // Date.UTC silently rolls 31 February over; a certificate that says so is malformed.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d! || h! > 23 || mi! > 59 || se! > 59) {
    throw new DerError('invalid time');
  }
  return ms;
}
