// Extensions ::= SEQUENCE OF Extension, as core/crypto/extensions.ts reads it (Go's asn1.Unmarshal
// into []pkix.Extension, same messages), into a scratch list in the arena; plus the duplicate check
// with a hash set so that hostile inputs with thousands of extensions stay linear.
import { Reader, T_BOOLEAN, T_OCTET_STRING, T_OID, T_SEQUENCE, boolValue, bytesEqual, checkOid, decodeBoolean, identifier, tContent, tEnd, N_EMPTY, N_EXTENSION, N_OBJECT_IDENTIFIER } from './der';
import { E_SEQUENCE_TAG_MISMATCH, fail } from './result';

// The list: 5 words per extension [oid addr, oid len, critical, value addr, value len].
export let extList: usize = 0;
export let extCount: u32 = 0;

@inline export function extField(i: u32, f: u32): u32 {
  return load<u32>(extList + ((<usize>i * 5 + f) << 2));
}

/** Parses the Extensions element starting at `p` (a reader over [p, end), errors counted from `p`). */
export function parseExtensions(p: usize, end: usize): bool {
  extCount = 0;
  // The smallest Extension is 7 bytes (30 05 06 01 xx 04 00).
  extList = heap.alloc(((end - p) / 7 + 1) * 20);
  const r = Reader.over(p, end);
  if (!r.expect(T_SEQUENCE, N_EMPTY)) return false;
  const list = Reader.inner();
  while (!list.empty) {
    if (!list.next()) return false;
    if (identifier() != T_SEQUENCE) return fail(E_SEQUENCE_TAG_MISMATCH);
    const e = Reader.inner();
    if (!e.expect(T_OID, N_OBJECT_IDENTIFIER)) return false;
    const o = tContent;
    const olen = tEnd - tContent;
    if (!checkOid(o, olen)) return false;
    const crit = e.optional(T_BOOLEAN);
    if (crit < 0) return false;
    const cp = tContent;
    const clen = tEnd - tContent;
    if (!e.expect(T_OCTET_STRING, N_EMPTY)) return false;
    const v = tContent;
    const vlen = tEnd - tContent;
    if (!e.finish(N_EXTENSION)) return false;
    let critical = false;
    if (crit == 1) {
      if (!decodeBoolean(cp, clen)) return false;
      critical = boolValue;
    }
    const at = extList + ((<usize>extCount * 5) << 2);
    store<u32>(at, <u32>o);
    store<u32>(at, <u32>olen, 4);
    store<u32>(at, critical ? 1 : 0, 8);
    store<u32>(at, <u32>v, 12);
    store<u32>(at, <u32>vlen, 16);
    extCount++;
  }
  return true;
}

/**
 * An open-addressing set of OIDs (byte ranges). Minimal DER makes byte equality the same as equality
 * of dotted OIDs, so no decoding is needed.
 */
export class OidSet {
  table: usize;
  mask: u32;
  constructor(capacity: u32) {
    let size: u32 = 16;
    while (size < capacity * 2) size <<= 1;
    this.mask = size - 1;
    this.table = heap.alloc(<usize>size << 3);
    memory.fill(this.table, 0, <usize>size << 3);
  }

  /** Adds the OID; false when it was already there. */
  add(p: usize, len: usize): bool {
    let h: u32 = 2166136261;
    for (let i: usize = 0; i < len; i++) h = (h ^ load<u8>(p + i)) * 16777619;
    let slot = h & this.mask;
    while (true) {
      const at = this.table + (<usize>slot << 3);
      const q = load<u32>(at);
      if (q == 0) {
        store<u32>(at, <u32>p);
        store<u32>(at, <u32>len, 4);
        return true;
      }
      if (bytesEqual(q, load<u32>(at, 4), p, len)) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}
