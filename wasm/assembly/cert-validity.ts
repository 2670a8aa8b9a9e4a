// A certificate's Validity as Go 1.23's parser reads it, ported from core/crypto/certificate-validity.ts:
// two times, each UTCTime or GeneralizedTime by its first octet, anything after them not looked at;
// cryptobyte takes what encoding/asn1 takes (go-asn1-time.ts), only the texts differ.
import { Cb } from './cryptobyte';
import { tContent, tEnd } from './der';
import { goAsn1TimeOk } from './go-asn1-time';
import { E_MALFORMED_GENERALIZEDTIME, E_MALFORMED_UTCTIME, E_UNSUPPORTED_TIME, fail } from './result';

function readTime(s: Cb): bool {
  if (s.peek(0x17)) return (s.read(0x17) && goAsn1TimeOk(0x17, tContent, tEnd - tContent)) || fail(E_MALFORMED_UTCTIME);
  if (s.peek(0x18)) return (s.read(0x18) && goAsn1TimeOk(0x18, tContent, tEnd - tContent)) || fail(E_MALFORMED_GENERALIZEDTIME);
  return fail(E_UNSUPPORTED_TIME);
}

/** parseValidity over the Validity SEQUENCE's content [p, end). */
export function parseValidity(p: usize, end: usize): bool {
  const s = new Cb(p, end);
  return readTime(s) && readTime(s);
}
