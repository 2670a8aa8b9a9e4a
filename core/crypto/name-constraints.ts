// The nameConstraints extension (2.5.29.30) as Go 1.23's certificate parser reads it
// (parseNameConstraintsExtension): the structure, then each subtree's base by its GeneralName tag,
// permitted subtrees before excluded ones, first failure wins. Other GeneralName forms (directoryName
// and the rest) are only "unhandled", which matters to Verify, not to parsing. The message texts are
// built here for the WASM decoder too (core/crypto/wasm/parse.ts), so both sides say the same.
import { Buffer } from 'node:buffer';
import { goQuote, goQuoteBytes } from '../go-quote.js';
import { CryptobyteString } from './cryptobyte.js';
import { CryptoError } from './errors.js';
import { goDomainOk, goMailboxOk } from './go-mailbox.js';
import { goParseIpOk } from './go-parse-ip.js';

export const NC_INVALID = 'x509: invalid NameConstraints extension';
export const NC_EMPTY = 'x509: empty name constraints extension';

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** The texts that quote the constraint (kind: wasm/assembly/name-constraints.ts NC_*). */
export function nameConstraintError(kind: number, value: Uint8Array): string {
  switch (kind) {
    case NC_IA5:
      return `x509: invalid constraint value: x509: ${goQuoteBytes(value)} cannot be encoded as an IA5String`;
    case NC_DNS:
      return `x509: failed to parse dnsName constraint ${goQuote(latin1(value))}`;
    case NC_IP_LENGTH:
      return `x509: IP constraint contained value of length ${value.length}`;
    case NC_IP_MASK:
      return `x509: IP constraint contained invalid mask ${Buffer.from(value).toString('hex')}`;
    case NC_EMAIL:
      return `x509: failed to parse rfc822Name constraint ${goQuote(latin1(value))}`;
    case NC_URI_IP:
      return `x509: failed to parse URI constraint ${goQuote(latin1(value))}: cannot be IP address`;
    default:
      return `x509: failed to parse URI constraint ${goQuote(latin1(value))}`;
  }
}
export const NC_IA5 = 1;
export const NC_DNS = 2;
export const NC_IP_LENGTH = 3;
export const NC_IP_MASK = 4;
export const NC_EMAIL = 5;
export const NC_URI_IP = 6;
export const NC_URI = 7;

const fail = (kind: number, value: Uint8Array): never => {
  throw new CryptoError(nameConstraintError(kind, value));
};

/** isValidIPMask: ones, then zeros. */
function maskOk(mask: Uint8Array): boolean {
  let seenZero = false;
  for (const b of mask) {
    if (seenZero) {
      if (b !== 0) return false;
    } else if ([0x00, 0x80, 0xc0, 0xe0, 0xf0, 0xf8, 0xfc, 0xfe].includes(b)) {
      seenZero = true;
    } else if (b !== 0xff) {
      return false;
    }
  }
  return true;
}

// A leading '.' (subdomains only) is allowed in DNS, email-domain and URI constraints.
const withoutDot = (v: Uint8Array): Uint8Array => (v[0] === 0x2e ? v.subarray(1) : v);

function checkBase(tag: number, value: Uint8Array): void {
  const ia5 = (): void => {
    if (value.some((b) => b >= 0x80)) fail(NC_IA5, value);
  };
  switch (tag) {
    case 0x82: // dNSName
      ia5();
      if (!goDomainOk(withoutDot(value))) fail(NC_DNS, value);
      return;
    case 0x87: // iPAddress: address then mask
      if (value.length !== 8 && value.length !== 32) fail(NC_IP_LENGTH, value);
      if (!maskOk(value.subarray(value.length / 2))) fail(NC_IP_MASK, value.subarray(value.length / 2));
      return;
    case 0x81: // rfc822Name: a mailbox when it holds '@', else a domain
      ia5();
      if (!(value.includes(0x40) ? goMailboxOk(value) : goDomainOk(withoutDot(value)))) fail(NC_EMAIL, value);
      return;
    case 0x86: // uniformResourceIdentifier: a domain, never an IP address
      ia5();
      if (goParseIpOk(value)) fail(NC_URI_IP, value);
      if (!goDomainOk(withoutDot(value))) fail(NC_URI, value);
      return;
    default:
      return;
  }
}

function checkSubtrees(s: CryptobyteString): void {
  while (!s.empty) {
    const subtree = s.read(0x30);
    const base = subtree === undefined ? undefined : s.inner(subtree).readAny();
    if (base === undefined) throw new CryptoError(NC_INVALID);
    checkBase(s.buf[base.start]!, s.content(base));
  }
}

/** Throws Go's error for a nameConstraints extnValue that Go's parser refuses. */
export function checkNameConstraints(value: Uint8Array): void {
  const outer = CryptobyteString.of(value);
  const top = outer.read(0x30);
  if (top === undefined || !outer.empty) throw new CryptoError(NC_INVALID);
  const t = outer.inner(top);
  const permitted = t.readOptional(0xa0);
  const excluded = permitted === undefined ? undefined : t.readOptional(0xa1);
  if (permitted === undefined || excluded === undefined || !t.empty) throw new CryptoError(NC_INVALID);
  const subtrees = [permitted, excluded].filter((x) => x !== 'absent').map((x) => t.inner(x));
  // Go 1.23 refuses only when neither list holds anything (an empty one beside a full one passes).
  if (subtrees.every((s) => s.empty)) throw new CryptoError(NC_EMPTY);
  for (const s of subtrees) checkSubtrees(s);
}
