// A Go `string(bytes)` as a JS string. Go 1.23 reads a T61String that way (encoding/asn1's
// parseT61String for CSR subjects, crypto/x509's parseASN1String for certificate names): no
// character set, the bytes are the string. Valid UTF-8 is therefore that text, so what plat reads
// is what it issues (the signer re-marshals the same bytes as a UTF8String).
//
// Bytes that are not UTF-8 have no JS text of their own. Each such byte becomes a lone low
// surrogate U+DC80..U+DCFF (Python's "surrogateescape"): the mapping stays one-to-one, so two
// different byte strings never read alike, and no well-formed name (a username, "system:masters")
// can equal one, where U+FFFD or Latin-1 would make different bytes compare equal. Go never
// issues such a value either ("asn1: string not valid UTF-8").

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The string Go's string(b) holds, invalid UTF-8 bytes escaped as U+DC80..U+DCFF. */
export function goBytesString(b: Uint8Array): string {
  try {
    return utf8.decode(b);
  } catch {
    return escaped(b);
  }
}

function escaped(b: Uint8Array): string {
  let s = '';
  let i = 0;
  while (i < b.length) {
    const n = sequenceLength(b, i);
    if (n === 0) {
      s += String.fromCharCode(0xdc00 | b[i]!);
      i++;
    } else {
      s += utf8.decode(b.subarray(i, i + n));
      i += n;
    }
  }
  return s;
}

/** The length of the well-formed UTF-8 sequence at b[i] (Unicode Table 3-7), or 0. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    need = 2;
    if (c === 0xe0) lo = 0xa0;
    else if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3;
    if (c === 0xf0) lo = 0x90;
    else if (c === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + need >= b.length) return 0;
  const c1 = b[i + 1]!;
  if (c1 < lo || c1 > hi) return 0;
  for (let k = 2; k <= need; k++) {
    const ck = b[i + k]!;
    if (ck < 0x80 || ck > 0xbf) return 0;
  }
  return need + 1;
}
