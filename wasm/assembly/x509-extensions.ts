// The v3 extensions the builder writes (RFC 5280 §4.2), in the backwards DER writer's style: each
// function writes one complete Extension. x509.ts calls them in reverse of Go's order
// (keyUsage, extKeyUsage, basicConstraints, SKI, AKI, SAN) so the output reads in Go's order.
import { putBooleanTrue, putByte, putBytes, putSmallInteger, putTlv, wPos, wrap } from './der-writer';
import { goUrlParse, goUrlString, goUrlStringMax } from './go-url';

export const SAN_EMAIL: u32 = 1; // rfc822Name [1]
export const SAN_DNS: u32 = 2; // dNSName [2]
export const SAN_URI: u32 = 6; // uniformResourceIdentifier [6]
export const SAN_IP: u32 = 7; // iPAddress [7]

/** Number of extKeyUsage OIDs the mask can select (bits 0..EKU_COUNT-1). */
export const EKU_COUNT: u32 = 12;

// extKeyUsage OIDs as complete TLVs, in Go's ExtKeyUsage enum order (usages.ts EKU_ORDER): any,
// server auth, client auth, code signing, email protection, ipsec end system, ipsec tunnel,
// ipsec user, timestamping, ocsp signing, microsoft sgc, netscape sgc.
const EKU_OIDS: usize = memory.data<u8>([
  0x06, 0x04, 0x55, 0x1d, 0x25, 0x00,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x05,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x06,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x07,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x08,
  0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x09,
  0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x0a, 0x03, 0x03,
  0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x86, 0xf8, 0x42, 0x04, 0x01,
]);
// Start offset of each OID in EKU_OIDS, plus the end.
const EKU_OFFSETS: usize = memory.data<u8>([0, 6, 16, 26, 36, 46, 56, 66, 76, 86, 96, 108, 119]);

// The id-ce arc 2.5.29.x as an OID TLV: 06 03 55 1d x.
function putIdCe(x: u32): void {
  putByte(x);
  putByte(0x1d);
  putByte(0x55);
  putByte(0x03);
  putByte(0x06);
}

// Call after the extnValue content has been written (it runs from the front to valueEnd).
function closeExtension(id: u32, critical: bool, valueEnd: usize, extEnd: usize): void {
  wrap(0x04, valueEnd);
  if (critical) putBooleanTrue();
  putIdCe(id);
  wrap(0x30, extEnd);
}

/** keyUsage (critical): `mask` bit n = KeyUsage bit n (0 digitalSignature .. 8 decipherOnly), not 0. */
export function putKeyUsage(mask: u32): void {
  const end = wPos();
  const highest: u32 = 31 - clz<u32>(mask);
  const byteCount = (highest >> 3) + 1;
  // Named bit list, minimal: trailing zero bits are dropped and counted as unused (X.690 §11.2.2).
  const unused = byteCount * 8 - 1 - highest;
  let b0: u32 = 0;
  let b1: u32 = 0;
  for (let bit: u32 = 0; bit <= highest; bit++) {
    if (mask & (1 << bit)) {
      if (bit < 8) b0 |= 0x80 >> bit;
      else b1 |= 0x80 >> (bit - 8);
    }
  }
  if (byteCount == 2) putByte(b1);
  putByte(b0);
  putByte(unused);
  wrap(0x03, end);
  closeExtension(0x0f, true, end, end);
}

/** extKeyUsage (not critical): `mask` bit i selects EKU_OIDS[i]; written in Go's order. */
export function putExtKeyUsage(mask: u32): void {
  const end = wPos();
  for (let i = <i32>EKU_COUNT - 1; i >= 0; i--) {
    if (mask & (1 << i)) {
      const from = <usize>load<u8>(EKU_OFFSETS + i);
      const to = <usize>load<u8>(EKU_OFFSETS + i + 1);
      putBytes(EKU_OIDS + from, to - from);
    }
  }
  wrap(0x30, end);
  closeExtension(0x25, false, end, end);
}

/** basicConstraints (critical): empty SEQUENCE for end entities; cA TRUE and an optional pathLen. */
export function putBasicConstraints(isCA: bool, hasPathLen: bool, pathLen: u32): void {
  const end = wPos();
  if (isCA) {
    if (hasPathLen) putSmallInteger(pathLen);
    putBooleanTrue();
  }
  wrap(0x30, end);
  closeExtension(0x13, true, end, end);
}

/** subjectKeyIdentifier (not critical): OCTET STRING of the key id. */
export function putSubjectKeyId(ski: usize, len: usize): void {
  const end = wPos();
  putTlv(0x04, ski, len);
  closeExtension(0x0e, false, end, end);
}

/** authorityKeyIdentifier (not critical): SEQUENCE { [0] keyIdentifier }. */
export function putAuthorityKeyId(aki: usize, len: usize): void {
  const end = wPos();
  putTlv(0x80, aki, len);
  wrap(0x30, end);
  closeExtension(0x23, false, end, end);
}

function ipv4Mapped(ip: usize): bool {
  for (let i: usize = 0; i < 10; i++) if (load<u8>(ip + i) != 0) return false;
  return load<u8>(ip + 10) == 0xff && load<u8>(ip + 11) == 0xff;
}

/**
 * subjectAltName from a list of entries (kind u8, length u32 LE, bytes) at `list`, whose start
 * offsets are in `offsets[0..count)`. Written in Go's order: DNS names, emails, IPs, URIs, each
 * kind in list order. The list has been validated by the caller.
 */
export function putSubjectAltNameList(list: usize, offsets: usize, count: i32, critical: bool): void {
  const end = wPos();
  // Backwards: the last kind in Go's order first, each kind's entries last first.
  for (let k = 0; k < 4; k++) {
    const kind: u32 = k == 0 ? SAN_URI : k == 1 ? SAN_IP : k == 2 ? SAN_EMAIL : SAN_DNS;
    for (let i = count - 1; i >= 0; i--) {
      const e = list + <usize>load<u32>(offsets + (<usize>i << 2));
      if (<u32>load<u8>(e) != kind) continue;
      let data = e + 5;
      let n = <usize>load<u32>(e + 1);
      // net.IP.To4: Go writes an IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its 4 bytes.
      if (kind == SAN_IP && n == 16 && ipv4Mapped(data)) { data += 12; n = 4; }
      // Go's template holds a parsed *url.URL and marshalSANs writes uri.String().
      if (kind == SAN_URI) {
        goUrlParse(data, n); // accepted before (scanSanList)
        const text = heap.alloc(goUrlStringMax(n));
        n = goUrlString(text);
        data = text;
      }
      putTlv(0x80 | kind, data, n);
    }
  }
  wrap(0x30, end);
  closeExtension(0x11, critical, end, end);
}
