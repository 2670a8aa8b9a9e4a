// The subject an issued certificate carries. Upstream signs from a template whose Subject is the
// CSR's parsed pkix.Name, and x509.CreateCertificate marshals that Name again
// (pkix.Name.ToRDNSequence), so the CSR's Name bytes never reach the certificate:
//  - only string values of C, ST, L, street, postalCode, O, OU, CN and serialNumber survive
//    (emailAddress, UID, DC and every other attribute are dropped), in that order;
//  - CN and serialNumber: the last value wins, and an empty one is left out;
//  - the values of one type form one multi-valued RDN whose members are sorted by their DER
//    encodings (encoding/asn1 sorts SET OF);
//  - each value becomes a PrintableString when every character allows it (Go's marshalling set,
//    without '*' and '&'), otherwise a UTF8String; a value that is not UTF-8 (a T61String's
//    bytes) fails the marshalling with "asn1: string not valid UTF-8".
// The input is a Name that parse-names.ts has already accepted (a CSR's subject).
import { readTlv, tCls, tConstructed, tContent, tEnd, tNum } from './der';
import { printable, validUtf8 } from './parse-names';

export let goSubjectLen: usize = 0;

// 2.5.4.X attribute types in ToRDNSequence's order: C, ST, L, street, postalCode, O, OU, CN, serialNumber.
const ORDER = memory.data<u8>([6, 8, 7, 9, 17, 10, 11, 3, 5]);
const ORDER_COUNT: usize = 9;
const CN: u32 = 3;
const SERIAL_NUMBER: u32 = 5;
// One entry per kept value: u32 type, u32 Go string address, u32 its length, u32 ATV encoding
// address, u32 its length.
const ENTRY: usize = 20;

function kept(t: u32): bool {
  for (let i: usize = 0; i < ORDER_COUNT; i++) if (<u32>load<u8>(ORDER + i) == t) return true;
  return false;
}

// Go's marshalling set for PrintableString: its parsing set without '*' and '&'.
function printableStrict(c: u32): bool {
  return c != 0x2a && c != 0x26 && printable(c);
}

function putUtf8(p: usize, r: u32): usize {
  if (r < 0x80) {
    store<u8>(p, <u8>r);
    return 1;
  }
  if (r < 0x800) {
    store<u8>(p, <u8>(0xc0 | (r >> 6)));
    store<u8>(p + 1, <u8>(0x80 | (r & 0x3f)));
    return 2;
  }
  if (r < 0x10000) {
    store<u8>(p, <u8>(0xe0 | (r >> 12)));
    store<u8>(p + 1, <u8>(0x80 | ((r >> 6) & 0x3f)));
    store<u8>(p + 2, <u8>(0x80 | (r & 0x3f)));
    return 3;
  }
  store<u8>(p, <u8>(0xf0 | (r >> 18)));
  store<u8>(p + 1, <u8>(0x80 | ((r >> 12) & 0x3f)));
  store<u8>(p + 2, <u8>(0x80 | ((r >> 6) & 0x3f)));
  store<u8>(p + 3, <u8>(0x80 | (r & 0x3f)));
  return 4;
}

// Go's parseBMPString: a trailing 00 00 terminator dropped, then utf16.Decode (an unpaired
// surrogate becomes U+FFFD) into UTF-8. Returns the length written at `out` (room: 2x len).
function bmpToUtf8(p: usize, len: usize, out: usize): usize {
  if (len >= 2 && load<u8>(p + len - 1) == 0 && load<u8>(p + len - 2) == 0) len -= 2;
  let o: usize = 0;
  let i: usize = 0;
  while (i + 1 < len) {
    const u = (<u32>load<u8>(p + i) << 8) | <u32>load<u8>(p + i + 1);
    i += 2;
    if (u >= 0xd800 && u < 0xdc00 && i + 1 < len) {
      const v = (<u32>load<u8>(p + i) << 8) | <u32>load<u8>(p + i + 1);
      if (v >= 0xdc00 && v < 0xe000) {
        i += 2;
        o += putUtf8(out + o, 0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00));
        continue;
      }
    }
    o += putUtf8(out + o, u >= 0xd800 && u < 0xe000 ? 0xfffd : u);
  }
  return o;
}

function headerLen(n: usize): usize {
  return n < 0x80 ? 2 : n < 0x100 ? 3 : n < 0x10000 ? 4 : 5;
}

function putHeader(p: usize, tag: u32, n: usize): usize {
  store<u8>(p, <u8>tag);
  if (n < 0x80) {
    store<u8>(p + 1, <u8>n);
    return 2;
  }
  const bytes: usize = n < 0x100 ? 1 : n < 0x10000 ? 2 : 3;
  store<u8>(p + 1, <u8>(0x80 | bytes));
  for (let i: usize = 0; i < bytes; i++) store<u8>(p + 2 + i, <u8>(n >> ((bytes - 1 - i) * 8)));
  return 2 + bytes;
}

// bytes.Compare of two encodings.
function less(a: usize, alen: usize, b: usize, blen: usize): bool {
  const n = alen < blen ? alen : blen;
  for (let i: usize = 0; i < n; i++) {
    const x = load<u8>(a + i), y = load<u8>(b + i);
    if (x != y) return x < y;
  }
  return alen < blen;
}

@inline function word(e: usize, k: usize): usize {
  return <usize>load<u32>(e + (k << 2));
}

/**
 * Go's re-marshalled form of the Name at name..name+len: its address (length in goSubjectLen), or
 * 0 when a value is not UTF-8 or the Name does not read.
 */
export function goSubject(name: usize, len: usize): usize {
  goSubjectLen = 0;
  if (!readTlv(name, name + len) || tEnd != name + len) return 0;
  const end = tEnd;
  // Every ATV takes at least 7 bytes; a BMP value's UTF-8 takes at most 1.5x its bytes.
  const entries = heap.alloc((len / 7 + 1) * ENTRY);
  const strings = heap.alloc(len * 2 + 8);
  let count: usize = 0;
  let s: usize = 0;
  let lastCn: isize = -1;
  let lastSerial: isize = -1;
  let p = tContent;
  while (p < end) {
    if (!readTlv(p, end)) return 0;
    p = tEnd;
    let q = tContent;
    const rdnEnd = tEnd;
    while (q < rdnEnd) {
      if (!readTlv(q, rdnEnd)) return 0;
      q = tEnd;
      const atvEnd = tEnd;
      if (!readTlv(tContent, atvEnd)) return 0;
      const type = tContent, typeLen = tEnd - tContent;
      if (!readTlv(tEnd, atvEnd)) return 0;
      if (typeLen != 3 || load<u8>(type) != 0x55 || load<u8>(type + 1) != 0x04) continue;
      const t = <u32>load<u8>(type + 2);
      if (!kept(t) || tConstructed || tCls != 0) continue;
      const v = tContent, vlen = tEnd - tContent;
      let str = v, strLen = vlen;
      if (tNum == 0x1e) {
        str = strings + s;
        strLen = bmpToUtf8(v, vlen, str);
        s += strLen;
      } else if (tNum != 0x13 && tNum != 0x16 && tNum != 0x12 && tNum != 0x14 && tNum != 0x0c) {
        continue; // not a string: FillFromRDNSequence skips it
      }
      const e = entries + count * ENTRY;
      store<u32>(e, t);
      store<u32>(e, <u32>str, 4);
      store<u32>(e, <u32>strLen, 8);
      if (t == CN) lastCn = <isize>count;
      if (t == SERIAL_NUMBER) lastSerial = <isize>count;
      count++;
    }
  }

  // Each kept value's AttributeTypeAndValue encoding, and the total.
  const atvs = heap.alloc(len * 2 + count * 16 + 8);
  let a: usize = 0;
  let total: usize = 0;
  for (let i: usize = 0; i < count; i++) {
    const e = entries + i * ENTRY;
    const t = <u32>word(e, 0);
    const str = word(e, 1), strLen = word(e, 2);
    const single = t == CN || t == SERIAL_NUMBER;
    if (single && (strLen == 0 || <isize>i != (t == CN ? lastCn : lastSerial))) {
      store<u32>(e, 0); // dropped
      continue;
    }
    let tag: u32 = 0x13;
    for (let k: usize = 0; k < strLen; k++) {
      if (!printableStrict(load<u8>(str + k))) {
        if (!validUtf8(str, strLen)) return 0;
        tag = 0x0c;
        break;
      }
    }
    const inner: usize = headerLen(strLen) + strLen + 5;
    const at = atvs + a;
    let o = putHeader(at, 0x30, inner);
    store<u8>(at + o, 0x06);
    store<u8>(at + o + 1, 3);
    store<u8>(at + o + 2, 0x55);
    store<u8>(at + o + 3, 0x04);
    store<u8>(at + o + 4, <u8>t);
    o += 5;
    o += putHeader(at + o, tag, strLen);
    memory.copy(at + o, str, strLen);
    o += strLen;
    store<u32>(e, <u32>at, 12);
    store<u32>(e, <u32>o, 16);
    a += o;
  }

  // RDN content lengths per type, then the Name.
  const rdnLens = heap.alloc(ORDER_COUNT * 4);
  for (let j: usize = 0; j < ORDER_COUNT; j++) {
    const t = <u32>load<u8>(ORDER + j);
    let n: usize = 0;
    for (let i: usize = 0; i < count; i++) {
      const e = entries + i * ENTRY;
      if (<u32>word(e, 0) == t) n += word(e, 4);
    }
    store<u32>(rdnLens + j * 4, <u32>n);
    if (n > 0) total += headerLen(n) + n;
  }
  const out = heap.alloc(headerLen(total) + total);
  let o = putHeader(out, 0x30, total);
  const order = heap.alloc(count * 4 + 4);
  for (let j: usize = 0; j < ORDER_COUNT; j++) {
    const n = <usize>load<u32>(rdnLens + j * 4);
    if (n == 0) continue;
    const t = <u32>load<u8>(ORDER + j);
    o += putHeader(out + o, 0x31, n);
    // The type's values, insertion-sorted by encoding (DER SET OF).
    let m: usize = 0;
    for (let i: usize = 0; i < count; i++) {
      const e = entries + i * ENTRY;
      if (<u32>word(e, 0) != t) continue;
      let k = m;
      while (k > 0) {
        const prev = entries + <usize>load<u32>(order + (k - 1) * 4) * ENTRY;
        if (!less(word(e, 3), word(e, 4), word(prev, 3), word(prev, 4))) break;
        store<u32>(order + k * 4, load<u32>(order + (k - 1) * 4));
        k--;
      }
      store<u32>(order + k * 4, <u32>i);
      m++;
    }
    for (let k: usize = 0; k < m; k++) {
      const e = entries + <usize>load<u32>(order + k * 4) * ENTRY;
      memory.copy(out + o, word(e, 3), word(e, 4));
      o += word(e, 4);
    }
  }
  goSubjectLen = o;
  return out;
}
