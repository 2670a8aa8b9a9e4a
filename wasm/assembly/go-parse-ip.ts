// Go 1.23's net.ParseIP(s) != nil (netip's parseIPv4Fields and parseIPv6, no zone), ported from
// core/crypto/go-parse-ip.ts (the reference; the tests hold both to the same verdicts).

function ipv4Ok(s: usize, from: usize, to: usize): bool {
  let val: u32 = 0;
  let digits: u32 = 0;
  let dots: u32 = 0;
  for (let i = from; i < to; i++) {
    const c = <u32>load<u8>(s + i);
    if (c >= 0x30 && c <= 0x39) {
      if (digits == 1 && val == 0) return false;
      val = val * 10 + c - 0x30;
      digits++;
      if (val > 255) return false;
    } else if (c == 0x2e) {
      if (i == from || i == to - 1 || load<u8>(s + i - 1) == 0x2e || dots == 3) return false;
      dots++;
      val = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  return dots == 3;
}

function hexValue(c: u32): i32 {
  if (c >= 0x30 && c <= 0x39) return <i32>c - 0x30;
  if (c >= 0x61 && c <= 0x66) return <i32>c - 0x57;
  if (c >= 0x41 && c <= 0x46) return <i32>c - 0x37;
  return -1;
}

function ipv6Ok(s: usize, len: usize): bool {
  for (let k: usize = 0; k < len; k++) if (load<u8>(s + k) == 0x25) return false; // a zone: never ParseIP's
  let p: usize = 0;
  let ellipsis: i32 = -1;
  if (len >= 2 && load<u8>(s) == 0x3a && load<u8>(s + 1) == 0x3a) {
    ellipsis = 0;
    p = 2;
    if (p == len) return true;
  }
  let i: i32 = 0;
  while (i < 16) {
    let off: usize = 0;
    let acc: u32 = 0;
    while (p + off < len) {
      const h = hexValue(<u32>load<u8>(s + p + off));
      if (h < 0) break;
      acc = acc * 16 + <u32>h;
      if (off > 3 || acc > 0xffff) return false;
      off++;
    }
    if (off == 0) return false;
    if (p + off < len && load<u8>(s + p + off) == 0x2e) {
      if ((ellipsis < 0 && i != 12) || i + 4 > 16) return false;
      if (!ipv4Ok(s, p, len)) return false;
      p = len;
      i += 4;
      break;
    }
    i += 2;
    p += off;
    if (p == len) break;
    if (load<u8>(s + p) != 0x3a || p + 1 == len) return false;
    p++;
    if (load<u8>(s + p) == 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      p++;
      if (p == len) break;
    }
  }
  if (p != len) return false;
  return i < 16 ? ellipsis >= 0 : ellipsis < 0;
}

/** net.ParseIP(string(bytes [s, s+len))) != nil. */
export function goParseIpOk(s: usize, len: usize): bool {
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(s + i);
    if (c == 0x2e) return ipv4Ok(s, 0, len);
    if (c == 0x3a) return ipv6Ok(s, len);
    if (c == 0x25) return false;
  }
  return false;
}
