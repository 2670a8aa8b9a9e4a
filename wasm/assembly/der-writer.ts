// DER writer that fills its buffer from the END backwards. Writing the content before its header
// means every length is known when it is written, so lengths are minimal and nothing is encoded
// twice or measured in advance (the builder is one pass over the inputs). An element is written as
//   const end = wPos(); ...write the content, last part first...; wrap(TAG, end);
// All state is module-level: one writer is active at a time (calls from JS never overlap).
// Overflow does not trap: it sets a flag the caller checks once at the end.

let start: usize = 0;
let pos: usize = 0;
let overflowed = false;

export function writerInit(buf: usize, cap: usize): void {
  start = buf;
  pos = buf + cap;
  overflowed = false;
}

/** The current front of the written data (the start of the last element written). */
@inline export function wPos(): usize {
  return pos;
}

export function writerOverflowed(): bool {
  return overflowed;
}

// Reserves n bytes in front of the written data. On overflow nothing is written and the front
// stays put, so later writes stay in bounds; the caller discards the output when it sees the flag.
@inline function reserve(n: usize): bool {
  if (n > pos - start) {
    overflowed = true;
    return false;
  }
  pos -= n;
  return true;
}

export function putByte(b: u32): void {
  if (reserve(1)) store<u8>(pos, <u8>b);
}

export function putBytes(src: usize, len: usize): void {
  if (reserve(len)) memory.copy(pos, src, len);
}

/** The definite length in its minimal form (X.690 §10.1). */
export function putLength(len: usize): void {
  if (len < 0x80) {
    putByte(<u32>len);
    return;
  }
  let n: u32 = 0;
  let v = len;
  while (v > 0) {
    putByte(<u32>(v & 0xff));
    v >>= 8;
    n++;
  }
  putByte(0x80 | n);
}

/** Closes the element whose content runs from the current front to `end`. */
export function wrap(tag: u32, end: usize): void {
  putLength(end - pos);
  putByte(tag);
}

export function putTlv(tag: u32, src: usize, len: usize): void {
  const end = pos;
  putBytes(src, len);
  wrap(tag, end);
}

/** A non-negative INTEGER from an unsigned big-endian magnitude: leading zeros stripped, a 0x00
 * added when the top bit is set (a zero-length or all-zero magnitude is 0). */
export function putUnsignedInteger(src: usize, len: usize): void {
  let i: usize = 0;
  while (i + 1 < len && load<u8>(src + i) == 0) i++;
  const end = pos;
  if (len == 0) {
    putByte(0);
  } else {
    putBytes(src + i, len - i);
    if (load<u8>(src + i) & 0x80) putByte(0);
  }
  wrap(0x02, end);
}

export function putSmallInteger(v: u32): void {
  const end = pos;
  let x = v;
  do {
    putByte(x & 0xff);
    x >>= 8;
  } while (x != 0);
  if (load<u8>(pos) & 0x80) putByte(0);
  wrap(0x02, end);
}

export function putBooleanTrue(): void {
  putByte(0xff);
  putByte(0x01);
  putByte(0x01);
}

/** BIT STRING with `unused` padding bits in the last content byte. */
export function putBitString(src: usize, len: usize, unused: u32): void {
  const end = pos;
  putBytes(src, len);
  putByte(unused);
  wrap(0x03, end);
}

@inline function put2(v: i32): void {
  putByte(<u32>(0x30 + v % 10));
  putByte(<u32>(0x30 + v / 10));
}

/**
 * RFC 5280 §4.1.2.5: UTCTime (YYMMDDHHMMSSZ) for 1950..2049, GeneralizedTime (YYYYMMDDHHMMSSZ)
 * otherwise. `seconds` is Unix time in whole seconds. Returns false outside years 0..9999.
 */
export function putTime(seconds: i64): bool {
  // Floor division so that times before 1970 land on the right day.
  let days = seconds / 86400;
  let rem = seconds % 86400;
  if (rem < 0) {
    rem += 86400;
    days -= 1;
  }
  // Howard Hinnant's civil_from_days (proleptic Gregorian, exact for any year).
  const z = days + 719468;
  const era = (z >= 0 ? z : z - 146096) / 146097;
  const doe = z - era * 146097;
  const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const mp = (5 * doy + 2) / 153;
  const day = <i32>(doy - (153 * mp + 2) / 5 + 1);
  const month = <i32>(mp < 10 ? mp + 3 : mp - 9);
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return false;
  const secs = <i32>rem;
  const end = pos;
  putByte(0x5a); // 'Z'
  put2(secs % 60);
  put2((secs / 60) % 60);
  put2(secs / 3600);
  put2(day);
  put2(month);
  const y = <i32>year;
  if (y >= 1950 && y < 2050) {
    put2(y % 100);
    wrap(0x17, end);
  } else {
    put2(y % 100);
    put2(y / 100);
    wrap(0x18, end);
  }
  return true;
}
