// A certificate's Validity as Go 1.23's parser reads it (parseValidity, readASN1Time): two times,
// each UTCTime or GeneralizedTime by its first octet, and nothing after them is looked at. cryptobyte
// takes a time when time.Parse reads it with its layouts and time.Format gives it back — the same
// acceptance as encoding/asn1's (go-asn1-time.ts), including UTCTime without seconds (YYMMDDhhmmZ)
// and non-zero +-hhmm offsets — only the failure texts are x509's fixed ones.
import { Buffer } from 'node:buffer';
import { CryptobyteString } from './cryptobyte.js';
import { CryptoError } from './errors.js';
import { goAsn1TimeError } from './go-asn1-time.js';

const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;

/** The Validity content (the SEQUENCE's inside): notBefore and notAfter, or Go's error. */
export function parseValidity(content: Uint8Array): [Date, Date] {
  const s = CryptobyteString.of(content);
  const notBefore = readTime(s);
  return [notBefore, readTime(s)];
}

function readTime(s: CryptobyteString): Date {
  for (const [tag, name] of [[UTC_TIME, 'UTCTime'], [GENERALIZED_TIME, 'GeneralizedTime']] as const) {
    if (!s.peek(tag)) continue;
    const t = s.read(tag);
    const value = t === undefined ? undefined : s.content(t);
    if (value === undefined || goAsn1TimeError(tag, value) !== undefined) throw new CryptoError(`x509: malformed ${name}`);
    return toDate(tag, value);
  }
  throw new CryptoError('x509: unsupported time format');
}

/** The instant of a value Go took (so in canonical form: digits, then Z or +-hhmm). */
function toDate(tag: number, v: Uint8Array): Date {
  const text = Buffer.from(v).toString('latin1');
  const zoneAt = text.search(/[Z+-]/);
  const digits = text.slice(0, zoneAt);
  const n = (from: number): number => Number(digits.slice(from, from + 2));
  let year: number;
  let rest: number;
  if (tag === UTC_TIME) {
    // cryptobyte: two-digit years 50-99 are 19xx, the rest 20xx.
    year = n(0) + (n(0) >= 50 ? 1900 : 2000);
    rest = 2;
  } else {
    year = Number(digits.slice(0, 4));
    rest = 4;
  }
  const d = new Date(0);
  d.setUTCFullYear(year, n(rest) - 1, n(rest + 2));
  d.setUTCHours(n(rest + 4), n(rest + 6), digits.length > rest + 8 ? n(rest + 8) : 0, 0);
  const zone = text.slice(zoneAt);
  if (zone !== 'Z') {
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5));
    d.setTime(d.getTime() - (zone[0] === '+' ? 1 : -1) * minutes * 60_000);
  }
  return d;
}
