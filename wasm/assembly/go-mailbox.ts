// Go 1.23 crypto/x509's domainToReverseLabels and parseRFC2821Mailbox verdicts, ported from
// core/crypto/go-mailbox.ts (the reference; the tests hold both to the same verdicts).

/** domainToReverseLabels succeeds on [p, p+len): no empty label, every byte in '!'..'~' ("" passes). */
export function goDomainOk(p: usize, len: usize): bool {
  let label: usize = 0;
  for (let i: usize = 0; i < len; i++) {
    const c = <u32>load<u8>(p + i);
    if (c == 0x2e) {
      if (label == 0) return false;
      label = 0;
    } else {
      if (c < 33 || c > 126) return false;
      label++;
    }
  }
  return len == 0 || label > 0;
}

function isAtext(c: u32): bool {
  if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return true;
  // !#$%&'*+-/=?^_`{|}~.
  return c == 0x21 || c == 0x23 || c == 0x24 || c == 0x25 || c == 0x26 || c == 0x27 || c == 0x2a || c == 0x2b || c == 0x2d ||
    c == 0x2f || c == 0x3d || c == 0x3f || c == 0x5e || c == 0x5f || c == 0x60 || c == 0x7b || c == 0x7c || c == 0x7d ||
    c == 0x7e || c == 0x2e;
}

function isQuotedPairText(c: u32): bool {
  return c == 11 || c == 12 || (c >= 1 && c <= 9) || (c >= 14 && c <= 127);
}

function isQtext(c: u32): bool {
  return c == 11 || c == 12 || c == 32 || c == 33 || c == 127 || (c >= 1 && c <= 8) || (c >= 14 && c <= 31) ||
    (c >= 35 && c <= 91) || (c >= 93 && c <= 126);
}

/** parseRFC2821Mailbox succeeds on [p, p+len). */
export function goMailboxOk(p: usize, len: usize): bool {
  if (len == 0) return false;
  let i: usize = 0;
  if (load<u8>(p) == 0x22) {
    i = 1;
    while (true) {
      if (i >= len) return false;
      const c = <u32>load<u8>(p + i++);
      if (c == 0x22) break;
      if (c == 0x5c) {
        if (i >= len || !isQuotedPairText(<u32>load<u8>(p + i))) return false;
        i++;
      } else if (!isQtext(c)) {
        return false;
      }
    }
  } else {
    // The local part: atext or backslash escapes; not starting or ending with '.', no "..".
    let n: usize = 0;
    let first: u32 = 0;
    let last: u32 = 0;
    while (i < len) {
      let c = <u32>load<u8>(p + i);
      if (c == 0x5c) {
        i++;
        if (i >= len) return false;
        c = <u32>load<u8>(p + i);
      } else if (!isAtext(c)) {
        break;
      }
      if (n == 0) first = c;
      else if (c == 0x2e && last == 0x2e) return false;
      last = c;
      n++;
      i++;
    }
    if (n == 0 || first == 0x2e || last == 0x2e) return false;
  }
  if (i >= len || load<u8>(p + i) != 0x40) return false;
  return goDomainOk(p + i + 1, len - i - 1);
}
