// PEM with the acceptance rules of Go's encoding/pem.Decode, ported from core/crypto/pem.ts (which
// is the reference): junk before a block is skipped, `Key: value` lines after BEGIN are headers, a
// block whose END line or base64 is broken is skipped and the search goes on after its BEGIN line.
// Work is on bytes in linear memory; the label is returned as a range, never as a string.

import { begin, setHeader } from './result';

// "\n-----BEGIN " and "\n-----END "; the forms without "\n" are these plus one.
const BEGIN = memory.data<u8>([0x0a, 0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x42, 0x45, 0x47, 0x49, 0x4e, 0x20]);
const BEGIN_LEN: usize = 12;
const END = memory.data<u8>([0x0a, 0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x45, 0x4e, 0x44, 0x20]);
const END_LEN: usize = 10;

// What pemDecodeFirst found.
export let pemLabel: usize = 0;
export let pemLabelLen: usize = 0;
export let pemHeaders: u32 = 0;
export let pemDer: usize = 0;
export let pemDerLen: usize = 0;
/** Where the input after the block starts (Go's `rest`). */
export let pemRest: usize = 0;

function startsWith(p: usize, len: usize, lit: usize, litLen: usize): bool {
  if (len < litLen) return false;
  for (let i: usize = 0; i < litLen; i++) if (load<u8>(p + i) != load<u8>(lit + i)) return false;
  return true;
}

/** Index of `lit` in [p, p+len), or -1. */
function indexOf(p: usize, len: usize, lit: usize, litLen: usize): isize {
  if (len < litLen) return -1;
  const first = load<u8>(lit);
  const last = len - litLen;
  for (let i: usize = 0; i <= last; i++) {
    if (load<u8>(p + i) == first && startsWith(p + i, litLen, lit, litLen)) return <isize>i;
  }
  return -1;
}

function isDashes(p: usize): bool {
  return load<u32>(p) == 0x2d2d2d2d && load<u8>(p + 4) == 0x2d;
}

// Go's getLine: the line's length (without CR/LF and trailing spaces/tabs) and where the rest starts.
let lineLen: usize = 0;
let lineNext: usize = 0;
function getLine(p: usize, len: usize): void {
  let i: usize = 0;
  while (i < len && load<u8>(p + i) != 0x0a) i++;
  let j: usize;
  if (i == len) {
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && load<u8>(p + i - 1) == 0x0d) i--;
  }
  let e = i;
  while (e > 0) {
    const c = load<u8>(p + e - 1);
    if (c != 0x20 && c != 0x09) break;
    e--;
  }
  lineLen = e;
  lineNext = p + j;
}

@inline function b64value(c: u32): i32 {
  if (c >= 0x41 && c <= 0x5a) return <i32>(c - 0x41);
  if (c >= 0x61 && c <= 0x7a) return <i32>(c - 0x61 + 26);
  if (c >= 0x30 && c <= 0x39) return <i32>(c - 0x30 + 52);
  if (c == 0x2b) return 62;
  if (c == 0x2f) return 63;
  return -1;
}

/**
 * Base64 as Go's StdEncoding with the TS reference's whitespace rule: space, tab, CR and LF ignored
 * anywhere; padding required; non-zero pad bits tolerated. Writes to `out` (at least len/4*3+3 bytes)
 * and sets pemDer/pemDerLen; false when invalid.
 */
function decodeBase64(p: usize, len: usize, out: usize): bool {
  let acc: u32 = 0;
  let n: u32 = 0; // symbols in the current quad
  let pad: u32 = 0;
  let o: usize = 0;
  for (let i: usize = 0; i < len; i++) {
    const c = <u32>load<u8>(p + i);
    if (c == 0x20 || c == 0x09 || c == 0x0d || c == 0x0a) continue;
    if (c == 0x3d) {
      // '=' only as the 3rd/4th symbol of the final quad ("xx==" or "xxx=").
      if (n < 2) return false;
      pad++;
      n++;
      if (n == 4) {
        if (pad == 1) {
          store<u8>(out + o++, <u8>(acc >> 10));
          store<u8>(out + o++, <u8>(acc >> 2));
        } else {
          store<u8>(out + o++, <u8>(acc >> 4));
        }
        // Nothing but ignored whitespace may follow.
        for (let k = i + 1; k < len; k++) {
          const d = load<u8>(p + k);
          if (d != 0x20 && d != 0x09 && d != 0x0d && d != 0x0a) return false;
        }
        pemDer = out;
        pemDerLen = o;
        return true;
      }
      continue;
    }
    if (pad > 0) return false;
    const v = b64value(c);
    if (v < 0) return false;
    acc = (acc << 6) | <u32>v;
    n++;
    if (n == 4) {
      store<u8>(out + o++, <u8>(acc >> 16));
      store<u8>(out + o++, <u8>(acc >> 8));
      store<u8>(out + o++, <u8>acc);
      acc = 0;
      n = 0;
    }
  }
  if (n != 0) return false;
  pemDer = out;
  pemDerLen = o;
  return true;
}

/**
 * Go's pem.Decode on [p, p+len): true when a block was found (see the pem* globals).
 *
 * Linear in len, where Go before CVE-2025-61723 was quadratic: every BEGIN line searched the rest
 * of the input for END. The END search starts ever later, so its answer is kept while it lies
 * ahead (there is no END between a later start and it). Every candidate decodes into one buffer,
 * taken on the first decode: the arena is not spent by candidates that fail.
 */
export function pemDecodeFirst(p: usize, len: usize): bool {
  let rest = p;
  const stop = p + len;
  // The next END at or after the last search's start: -2 not searched yet, -1 none.
  let endAt: isize = -2;
  let out: usize = 0;
  while (true) {
    if (startsWith(rest, stop - rest, BEGIN + 1, BEGIN_LEN - 1)) {
      rest += BEGIN_LEN - 1;
    } else {
      const at = indexOf(rest, stop - rest, BEGIN, BEGIN_LEN);
      if (at < 0) return false;
      rest += <usize>at + BEGIN_LEN;
    }

    getLine(rest, stop - rest);
    const typeLine = rest;
    let typeLen = lineLen;
    rest = lineNext;
    if (typeLen < 5 || !isDashes(typeLine + typeLen - 5)) continue;
    typeLen -= 5;

    let headers: u32 = 0;
    while (true) {
      // Go gives up entirely here (returns no block), it does not continue the search.
      if (rest >= stop) return false;
      getLine(rest, stop - rest);
      let colon = false;
      for (let i: usize = 0; i < lineLen; i++) {
        if (load<u8>(rest + i) == 0x3a) {
          colon = true;
          break;
        }
      }
      if (!colon) break;
      headers++;
      rest = lineNext;
    }

    const restLen = stop - rest;
    let endIndex: isize;
    let endTrailer: usize;
    if (headers == 0 && startsWith(rest, restLen, END + 1, END_LEN - 1)) {
      endIndex = 0;
      endTrailer = END_LEN - 1;
    } else {
      if (endAt == -2 || (endAt >= 0 && <usize>endAt < rest)) {
        const at = indexOf(rest, restLen, END, END_LEN);
        endAt = at < 0 ? -1 : <isize>(rest + <usize>at);
      }
      if (endAt < 0) continue;
      endIndex = <isize>(<usize>endAt - rest);
      endTrailer = <usize>endIndex + END_LEN;
    }

    const trailerLen = typeLen + 5;
    const afterEnd = rest + endTrailer;
    const afterLen = stop - afterEnd;
    if (afterLen < trailerLen) continue;
    if (!startsWith(afterEnd, typeLen, typeLine, typeLen) || !isDashes(afterEnd + typeLen)) continue;
    getLine(afterEnd + trailerLen, afterLen - trailerLen);
    if (lineLen != 0) continue;

    if (out == 0) out = heap.alloc((len >> 2) * 3 + 3);
    if (!decodeBase64(rest, <usize>endIndex, out)) continue;

    const tail = rest + <usize>endIndex + END_LEN - 1;
    getLine(tail, stop - tail);
    pemLabel = typeLine;
    pemLabelLen = typeLen;
    pemHeaders = headers;
    pemRest = lineNext;
    return true;
  }
}

const ALPHABET = memory.data<u8>([
  65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90,
  97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122,
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 43, 47,
]);

/** Bytes pemEncode writes for a label and DER of these lengths. */
export function pemEncodedLength(labelLen: usize, derLen: usize): usize {
  const b64 = ((derLen + 2) / 3) * 4;
  return 11 + labelLen + 6 + b64 + (b64 + 63) / 64 + 9 + labelLen + 6;
}

function put(out: usize, o: usize, p: usize, len: usize): usize {
  memory.copy(out + o, p, len);
  return o + len;
}

/** RFC 7468 strict form (64-character lines, LF) into `out` (pemEncodedLength bytes); returns the length. */
export function pemEncode(label: usize, labelLen: usize, der: usize, derLen: usize, out: usize): usize {
  let o = put(out, 0, BEGIN + 1, BEGIN_LEN - 1);
  o = put(out, o, label, labelLen);
  o = put(out, o, END + 1, 5);
  store<u8>(out + o++, 0x0a);
  let col = 0;
  for (let i: usize = 0; i < derLen; i += 3) {
    const left = derLen - i;
    const b0 = <u32>load<u8>(der + i);
    const b1 = left > 1 ? <u32>load<u8>(der + i + 1) : 0;
    const b2 = left > 2 ? <u32>load<u8>(der + i + 2) : 0;
    const v = (b0 << 16) | (b1 << 8) | b2;
    store<u8>(out + o, load<u8>(ALPHABET + (v >> 18)));
    store<u8>(out + o + 1, load<u8>(ALPHABET + ((v >> 12) & 63)));
    store<u8>(out + o + 2, left > 1 ? load<u8>(ALPHABET + ((v >> 6) & 63)) : 0x3d);
    store<u8>(out + o + 3, left > 2 ? load<u8>(ALPHABET + (v & 63)) : 0x3d);
    o += 4;
    col += 4;
    if (col == 64) {
      store<u8>(out + o++, 0x0a);
      col = 0;
    }
  }
  if (col != 0) store<u8>(out + o++, 0x0a);
  o = put(out, o, END + 1, END_LEN - 1);
  o = put(out, o, label, labelLen);
  o = put(out, o, END + 1, 5);
  store<u8>(out + o++, 0x0a);
  return o;
}

/**
 * The first PEM block of [p, p+len) as a result area (result.ts): header words 8..14 = found (0/1),
 * label address, label length, header count, DER address, DER length, address of the rest.
 */
export function pemDecode(p: usize, len: usize): usize {
  const res = begin(0);
  if (!pemDecodeFirst(p, len)) return res;
  setHeader(8, 1);
  setHeader(9, <u32>pemLabel);
  setHeader(10, <u32>pemLabelLen);
  setHeader(11, pemHeaders);
  setHeader(12, <u32>pemDer);
  setHeader(13, <u32>pemDerLen);
  setHeader(14, <u32>pemRest);
  return res;
}
