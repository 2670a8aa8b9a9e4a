// Go 1.23's net.ParseIP(s) != nil (netip.ParseAddr without a zone), the test crypto/x509 makes
// before it takes a URI name constraint as a domain. Only the verdict is needed; the byte-level
// steps follow netip's parseIPv4Fields and parseIPv6 so that the WASM port
// (wasm/assembly/go-parse-ip.ts) can be checked against this one case by case.

/** parseIPv4Fields over s[from, to): four dotted decimal octets, no leading zeros, each <= 255. */
function ipv4Ok(s: Uint8Array, from: number, to: number): boolean {
  let val = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const c = s[i]!;
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && val === 0) return false;
      val = val * 10 + c - 0x30;
      digits++;
      if (val > 255) return false;
    } else if (c === 0x2e) {
      if (i === from || i === to - 1 || s[i - 1] === 0x2e || dots === 3) return false;
      dots++;
      val = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  return dots === 3;
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;

function ipv6Ok(s: Uint8Array): boolean {
  // A zone ('%...') makes ParseIP refuse the address, whether the zone is valid or not.
  if (s.includes(0x25)) return false;
  let p = 0;
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === 0x3a && s[1] === 0x3a) {
    ellipsis = 0;
    p = 2;
    if (p === s.length) return true;
  }
  let i = 0; // bytes of the address filled
  while (i < 16) {
    let off = 0;
    let acc = 0;
    while (p + off < s.length) {
      const h = hexValue(s[p + off]!);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3 || acc > 0xffff) return false;
      off++;
    }
    if (off === 0) return false;
    if (p + off < s.length && s[p + off] === 0x2e) {
      // An embedded IPv4 address: only as the last 32 bits.
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return false;
      if (!ipv4Ok(s, p, s.length)) return false;
      p = s.length;
      i += 4;
      break;
    }
    i += 2;
    p += off;
    if (p === s.length) break;
    if (s[p] !== 0x3a || p + 1 === s.length) return false;
    p++;
    if (s[p] === 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      p++;
      if (p === s.length) break;
    }
  }
  if (p !== s.length) return false;
  return i < 16 ? ellipsis >= 0 : ellipsis < 0;
}

/** net.ParseIP(string(s)) != nil. */
export function goParseIpOk(s: Uint8Array): boolean {
  for (const c of s) {
    if (c === 0x2e) return ipv4Ok(s, 0, s.length);
    if (c === 0x3a) return ipv6Ok(s);
    if (c === 0x25) return false;
  }
  return false;
}
