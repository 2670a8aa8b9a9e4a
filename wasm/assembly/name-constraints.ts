// The nameConstraints extension as Go 1.23's certificate parser reads it, ported from
// core/crypto/name-constraints.ts (the reference): structure first, then each subtree's base by its
// GeneralName tag, permitted before excluded, first failure wins. Texts that quote the constraint
// are built in JS from E_NC_VALUE's arguments (core/crypto/name-constraints.ts nameConstraintError).
import { Cb } from './cryptobyte';
import { tContent, tEnd, tStart } from './der';
import { goDomainOk, goMailboxOk } from './go-mailbox';
import { goParseIpOk } from './go-parse-ip';
import { E_NC_EMPTY, E_NC_INVALID, E_NC_VALUE, fail, failArgs } from './result';

// Which text E_NC_VALUE stands for; core/crypto/name-constraints.ts NC_* has the same numbers.
const NC_IA5: u32 = 1;
const NC_DNS: u32 = 2;
const NC_IP_LENGTH: u32 = 3;
const NC_IP_MASK: u32 = 4;
const NC_EMAIL: u32 = 5;
const NC_URI_IP: u32 = 6;
const NC_URI: u32 = 7;

function bad(kind: u32, p: usize, len: usize): bool {
  return failArgs(E_NC_VALUE, kind, <u32>p, <u32>len);
}

function maskOk(p: usize, len: usize): bool {
  let seenZero = false;
  for (let i: usize = 0; i < len; i++) {
    const b = <u32>load<u8>(p + i);
    if (seenZero) {
      if (b != 0) return false;
    } else if (b == 0x00 || b == 0x80 || b == 0xc0 || b == 0xe0 || b == 0xf0 || b == 0xf8 || b == 0xfc || b == 0xfe) {
      seenZero = true;
    } else if (b != 0xff) {
      return false;
    }
  }
  return true;
}

function ia5(p: usize, len: usize): bool {
  for (let i: usize = 0; i < len; i++) if (load<u8>(p + i) >= 0x80) return false;
  return true;
}

function has(p: usize, len: usize, c: u8): bool {
  for (let i: usize = 0; i < len; i++) if (load<u8>(p + i) == c) return true;
  return false;
}

/** A domain constraint: an optional leading '.' (subdomains only), then domainToReverseLabels. */
function domainOk(p: usize, len: usize): bool {
  return len > 0 && load<u8>(p) == 0x2e ? goDomainOk(p + 1, len - 1) : goDomainOk(p, len);
}

function checkBase(tag: u32, p: usize, len: usize): bool {
  if (tag == 0x82) {
    if (!ia5(p, len)) return bad(NC_IA5, p, len);
    return domainOk(p, len) || bad(NC_DNS, p, len);
  }
  if (tag == 0x87) {
    if (len != 8 && len != 32) return bad(NC_IP_LENGTH, p, len);
    const half = len >> 1;
    return maskOk(p + half, half) || bad(NC_IP_MASK, p + half, half);
  }
  if (tag == 0x81) {
    if (!ia5(p, len)) return bad(NC_IA5, p, len);
    const ok = has(p, len, 0x40) ? goMailboxOk(p, len) : domainOk(p, len);
    return ok || bad(NC_EMAIL, p, len);
  }
  if (tag == 0x86) {
    if (!ia5(p, len)) return bad(NC_IA5, p, len);
    if (goParseIpOk(p, len)) return bad(NC_URI_IP, p, len);
    return domainOk(p, len) || bad(NC_URI, p, len);
  }
  return true; // other GeneralName forms: unhandled (a Verify matter), not a parse error
}

function checkSubtrees(start: usize, end: usize): bool {
  const s = new Cb(start, end);
  while (!s.empty) {
    if (!s.read(0x30) || !Cb.inner().readAny()) return fail(E_NC_INVALID);
    if (!checkBase(<u32>load<u8>(tStart), tContent, tEnd - tContent)) return false;
  }
  return true;
}

/** Go's verdict on a nameConstraints extnValue at [v, v+len); false with its error recorded. */
export function checkNameConstraints(v: usize, len: usize): bool {
  const outer = new Cb(v, v + len);
  if (!outer.read(0x30) || !outer.empty) return fail(E_NC_INVALID);
  const top = Cb.inner();
  const permitted = top.readOptional(0xa0);
  const ps = tContent, pe = tEnd;
  const excluded = permitted < 0 ? -1 : top.readOptional(0xa1);
  const xs = tContent, xe = tEnd;
  if (permitted < 0 || excluded < 0 || !top.empty) return fail(E_NC_INVALID);
  // Go 1.23 refuses only when neither list holds anything (an empty one beside a full one passes).
  if ((permitted == 0 || ps == pe) && (excluded == 0 || xs == xe)) return fail(E_NC_EMPTY);
  if (permitted == 1 && !checkSubtrees(ps, pe)) return false;
  return excluded == 0 || checkSubtrees(xs, xe);
}
