// Go 1.23 crypto/x509's domain and mailbox syntax checks (verify.go domainToReverseLabels and
// parseRFC2821Mailbox), which its certificate parser applies to name constraints. Only the verdicts
// are needed. Inputs are bytes (constraints are checked to be IA5 first, so bytes are characters).
// wasm/assembly/go-mailbox.ts is the same code; the tests hold both to the same verdicts.

/** domainToReverseLabels(s) succeeds: no empty label anywhere, every byte in '!'..'~' ("" passes). */
export function goDomainOk(s: Uint8Array): boolean {
  let label = 0;
  for (const c of s) {
    if (c === 0x2e) {
      if (label === 0) return false;
      label = 0;
    } else {
      if (c < 33 || c > 126) return false;
      label++;
    }
  }
  return s.length === 0 || label > 0;
}

const isAtext = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || "!#$%&'*+-/=?^_`{|}~.".includes(String.fromCharCode(c));
// quoted-pair's "text" (a byte after a backslash inside quotes), and qtext (space and '!' allowed, as in Go).
const isQuotedPairText = (c: number): boolean => c === 11 || c === 12 || (c >= 1 && c <= 9) || (c >= 14 && c <= 127);
const isQtext = (c: number): boolean =>
  c === 11 || c === 12 || c === 32 || c === 33 || c === 127 || (c >= 1 && c <= 8) || (c >= 14 && c <= 31) || (c >= 35 && c <= 91) || (c >= 93 && c <= 126);

/** parseRFC2821Mailbox(s) succeeds. */
export function goMailboxOk(s: Uint8Array): boolean {
  if (s.length === 0) return false;
  let i = 0;
  if (s[0] === 0x22) {
    i = 1;
    for (;;) {
      if (i >= s.length) return false;
      const c = s[i++]!;
      if (c === 0x22) break;
      if (c === 0x5c) {
        if (i >= s.length || !isQuotedPairText(s[i]!)) return false;
        i++;
      } else if (!isQtext(c)) {
        return false;
      }
    }
  } else {
    // Atom ("." Atom)*, backslash escapes allowed; the local part must not start or end with '.' or hold "..".
    const local: number[] = [];
    while (i < s.length) {
      let c = s[i]!;
      if (c === 0x5c) {
        i++;
        if (i >= s.length) return false;
        c = s[i]!;
      } else if (!isAtext(c)) {
        break;
      }
      local.push(c);
      i++;
    }
    if (local.length === 0 || local[0] === 0x2e || local[local.length - 1] === 0x2e) return false;
    for (let k = 1; k < local.length; k++) if (local[k] === 0x2e && local[k - 1] === 0x2e) return false;
  }
  if (i >= s.length || s[i] !== 0x40) return false;
  return goDomainOk(s.subarray(i + 1));
}
