// Strict DER reader over linear memory, a port of core/crypto/der.ts with the same checks in the
// same order (so the same Go error texts come out): no indefinite or non-minimal lengths or tags,
// no element may end past its parent. Every read is bounds-checked against the enclosing element;
// nothing aborts: failures record an error code (result.ts) and return false.
import {
  E_B128_NOT_MINIMAL, E_B128_TOO_LARGE, E_B128_TRUNCATED, E_BIT_STRING_PADDING, E_BOOLEAN, E_DATA_TRUNCATED,
  E_EMPTY_INTEGER, E_INDEFINITE_LENGTH, E_INTEGER_NOT_MINIMAL, E_INTEGER_TOO_LARGE, E_LENGTH_LEADING_ZEROS,
  E_LENGTH_TOO_LARGE, E_NON_MINIMAL_LENGTH, E_NON_MINIMAL_TAG, E_SEQUENCE_TRUNCATED, E_TAG_MISMATCH,
  E_TRAILING_IN, E_TRUNCATED_TAG_OR_LENGTH, E_ZERO_BIT_STRING, E_ZERO_OID, fail, failArgs,
} from './result';

export const T_BOOLEAN: u32 = 0x01;
export const T_INTEGER: u32 = 0x02;
export const T_BIT_STRING: u32 = 0x03;
export const T_OCTET_STRING: u32 = 0x04;
export const T_OID: u32 = 0x06;
export const T_UTCTIME: u32 = 0x17;
export const T_GENERALIZEDTIME: u32 = 0x18;
export const T_SEQUENCE: u32 = 0x30;
export const T_SET: u32 = 0x31;

// Names for "tags don't match" and "trailing data in": ids into tables in parse.ts.
export const N_EMPTY: u32 = 0;
export const N_CERTIFICATE_REQUEST: u32 = 1;
export const N_TBS_CERTIFICATE_REQUEST: u32 = 2;
export const N_INT: u32 = 3;
export const N_PUBLIC_KEY_INFO: u32 = 4;
export const N_ALGORITHM_IDENTIFIER: u32 = 5;
export const N_OBJECT_IDENTIFIER: u32 = 6;
export const N_BIT_STRING: u32 = 7;
export const N_RAW_VALUES: u32 = 8;
export const N_RDN_SEQUENCE: u32 = 9;
export const N_SUBJECT_PUBLIC_KEY_INFO: u32 = 10;
export const N_ATTRIBUTE_TYPE_AND_VALUE: u32 = 11;
export const N_EXTENSION: u32 = 12;
export const N_OTHER: u32 = 13; // names only seen inside errors that are rewritten anyway

// The element readTlv found last. Callers copy what they need before the next read.
export let tCls: u32 = 0;
export let tConstructed: bool = false;
export let tNum: u32 = 0;
export let tStart: usize = 0;
export let tContent: usize = 0;
export let tEnd: usize = 0;

/** Go's identifier octet for low tag numbers, 0xffffffff for high ones (never equal to a wanted tag). */
export function identifier(): u32 {
  return tNum < 31 ? (tCls << 6) | (tConstructed ? 0x20 : 0) | tNum : 0xffffffff;
}

/** Reads the TLV header at `p`; the element must end at or before `limit`. */
export function readTlv(p: usize, limit: usize): bool {
  let q = p;
  if (q >= limit) return fail(E_DATA_TRUNCATED);
  const b0 = <u32>load<u8>(q++);
  const cls = b0 >> 6;
  const constructed = (b0 & 0x20) != 0;
  let num: u64 = b0 & 0x1f;
  if (num == 0x1f) {
    num = 0;
    let shifted = 0;
    while (true) {
      if (shifted == 5) return fail(E_B128_TOO_LARGE);
      if (q >= limit) return fail(E_B128_TRUNCATED);
      const b = <u32>load<u8>(q++);
      if (shifted == 0 && b == 0x80) return fail(E_B128_NOT_MINIMAL);
      shifted++;
      num = (num << 7) | <u64>(b & 0x7f);
      if ((b & 0x80) == 0) break;
    }
    if (num > 0x7fffffff) return fail(E_B128_TOO_LARGE);
    if (num < 0x1f) return fail(E_NON_MINIMAL_TAG);
  }
  if (q >= limit) return fail(E_TRUNCATED_TAG_OR_LENGTH);
  const l0 = <u32>load<u8>(q++);
  let length: u64;
  if ((l0 & 0x80) == 0) {
    length = l0;
  } else {
    const count = l0 & 0x7f;
    if (count == 0) return fail(E_INDEFINITE_LENGTH);
    length = 0;
    for (let i: u32 = 0; i < count; i++) {
      if (q >= limit) return fail(E_TRUNCATED_TAG_OR_LENGTH);
      if (length >= 1 << 23) return fail(E_LENGTH_TOO_LARGE);
      length = (length << 8) | <u64>load<u8>(q++);
      if (length == 0) return fail(E_LENGTH_LEADING_ZEROS);
    }
    if (length < 0x80) return fail(E_NON_MINIMAL_LENGTH);
  }
  if (length > <u64>(limit - q)) return fail(E_DATA_TRUNCATED);
  tCls = cls;
  tConstructed = constructed;
  tNum = <u32>num;
  tStart = p;
  tContent = q;
  tEnd = q + <usize>length;
  return true;
}

/** Sequential reader over [pos, end); `start` is where offsets in error texts count from. */
export class Reader {
  constructor(public start: usize, public pos: usize, public end: usize) {}

  static over(start: usize, end: usize): Reader {
    return new Reader(start, start, end);
  }

  /** A reader over the content of the element readTlv found last. */
  static inner(): Reader {
    return new Reader(tContent, tContent, tEnd);
  }

  get empty(): bool {
    return this.pos >= this.end;
  }

  /** The next element (Go's "sequence truncated" when there is none). */
  next(): bool {
    if (this.pos >= this.end) return fail(E_SEQUENCE_TRUNCATED);
    if (!readTlv(this.pos, this.end)) return false;
    this.pos = tEnd;
    return true;
  }

  /** The next element, which must carry the low-number identifier octet `id`. */
  expect(id: u32, typeName: u32): bool {
    if (this.pos >= this.end) return fail(E_SEQUENCE_TRUNCATED);
    if (!readTlv(this.pos, this.end)) return false;
    if (identifier() != id) {
      return failArgs(E_TAG_MISMATCH, id & 0x1f, tCls, tNum, <u32>(tEnd - tContent), tConstructed ? 1 : 0, typeName, <u32>(tContent - this.start));
    }
    this.pos = tEnd;
    return true;
  }

  /** 1 when the next element carries `id` (consumed), 0 when not or at the end, -1 on a bad header. */
  optional(id: u32): i32 {
    if (this.pos >= this.end) return 0;
    if (!readTlv(this.pos, this.end)) return -1;
    if (identifier() != id) return 0;
    this.pos = tEnd;
    return 1;
  }

  /** Elements after the last known field are rejected (stricter than Go, like the TS reader). */
  finish(what: u32): bool {
    if (this.pos < this.end) return failArgs(E_TRAILING_IN, what);
    return true;
  }
}

/** Go's minimal-encoding checks for INTEGER content. */
export function checkInteger(p: usize, len: usize): bool {
  if (len == 0) return fail(E_EMPTY_INTEGER);
  if (len > 1) {
    const a = load<u8>(p);
    const b = load<u8>(p + 1) & 0x80;
    if ((a == 0 && b == 0) || (a == 0xff && b != 0)) return fail(E_INTEGER_NOT_MINIMAL);
  }
  return true;
}

export let intValue: i64 = 0;

/** INTEGER content that must fit an int64 (Go's `int` fields); the value goes to intValue. */
export function decodeInt64(p: usize, len: usize): bool {
  if (!checkInteger(p, len)) return false;
  if (len > 8) return fail(E_INTEGER_TOO_LARGE);
  let v: i64 = <i64>load<i8>(p); // sign-extends the first byte
  for (let i: usize = 1; i < len; i++) v = (v << 8) | <i64>load<u8>(p + i);
  intValue = v;
  return true;
}

/** OBJECT IDENTIFIER content checks (Go's parseObjectIdentifier). The dotted form is built in JS. */
export function checkOid(p: usize, len: usize): bool {
  if (len == 0) return fail(E_ZERO_OID);
  let i: usize = 0;
  while (i < len) {
    let v: u64 = 0;
    let shifted = 0;
    while (true) {
      if (shifted == 5) return fail(E_B128_TOO_LARGE);
      if (i >= len) return fail(E_B128_TRUNCATED);
      const b = <u32>load<u8>(p + i++);
      if (shifted == 0 && b == 0x80) return fail(E_B128_NOT_MINIMAL);
      shifted++;
      v = (v << 7) | <u64>(b & 0x7f);
      if ((b & 0x80) == 0) break;
    }
    if (v > 0x7fffffff) return fail(E_B128_TOO_LARGE);
  }
  return true;
}

/** BIT STRING content checks; the unused-bit count is content[0]. */
export function checkBitString(p: usize, len: usize): bool {
  if (len == 0) return fail(E_ZERO_BIT_STRING);
  return checkBitStringPadding(p, len);
}

function checkBitStringPadding(p: usize, len: usize): bool {
  const unused = <u32>load<u8>(p);
  const last = <u32>load<u8>(p + len - 1);
  if (unused > 7 || (len == 1 && unused > 0) || (last & ((1 << unused) - 1)) != 0) {
    return fail(E_BIT_STRING_PADDING);
  }
  return true;
}

export let boolValue: bool = false;

export function decodeBoolean(p: usize, len: usize): bool {
  if (len != 1) return fail(E_BOOLEAN);
  const b = load<u8>(p);
  if (b == 0) boolValue = false;
  else if (b == 0xff) boolValue = true;
  else return fail(E_BOOLEAN);
  return true;
}

/** Byte equality of two ranges. */
export function bytesEqual(a: usize, alen: usize, b: usize, blen: usize): bool {
  if (alen != blen) return false;
  for (let i: usize = 0; i < alen; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/** Go's BitString.RightAlign into a fresh arena buffer (only needed when bits are unused). */
export function rightAlign(p: usize, len: usize, unused: u32): usize {
  const out = heap.alloc(len > 0 ? len : 1);
  if (len == 0) return out;
  store<u8>(out, <u8>(<u32>load<u8>(p) >> unused));
  for (let i: usize = 1; i < len; i++) {
    store<u8>(out + i, <u8>(((<u32>load<u8>(p + i - 1) << (8 - unused)) | (<u32>load<u8>(p + i) >> unused)) & 0xff));
  }
  return out;
}
