// subjectAltName: reading (Go's parseSANExtension rules and messages) and writing, plus the IP address
// text forms Go prints (net.IP.String), since IPs appear in API objects as strings.
import { isIP } from 'node:net';
import { Buffer } from 'node:buffer';
import { DerReader, TAG, identifierOf, readTlv } from './der.js';
import { concat, seq, tlv } from './der-write.js';
import { CryptoError } from './errors.js';
import { goUrl } from './wasm/go-url.js';

export interface SubjectAltNames {
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

// GeneralName CHOICE tags (context-specific, primitive).
const RFC822 = 0x81;
const DNS = 0x82;
const URI = 0x86;
const IP = 0x87;

const isIa5 = (b: Uint8Array): boolean => b.every((x) => x < 0x80);

/** Parses the extnValue of a subjectAltName extension. */
export function parseSubjectAltNames(value: Uint8Array): SubjectAltNames {
  const out: SubjectAltNames = { dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  let seqTlv;
  try {
    seqTlv = readTlv(value, 0);
  } catch {
    throw new CryptoError('x509: invalid subject alternative names');
  }
  if (identifierOf(seqTlv) !== TAG.SEQUENCE) throw new CryptoError('x509: invalid subject alternative names');
  const names = new DerReader(value, seqTlv.contentStart, seqTlv.end);
  while (!names.empty) {
    let t;
    try {
      t = names.next();
    } catch {
      throw new CryptoError('x509: invalid subject alternative name');
    }
    // cryptobyte's ReadAnyASN1 refuses high tag numbers.
    if (identifierOf(t) === -1) throw new CryptoError('x509: invalid subject alternative name');
    const data = names.content(t);
    const text = (): string => Buffer.from(data).toString('latin1');
    switch (identifierOf(t)) {
      case RFC822:
        if (!isIa5(data)) throw new CryptoError('x509: SAN rfc822Name is malformed');
        out.emailAddresses.push(text());
        break;
      case DNS:
        if (!isIa5(data)) throw new CryptoError('x509: SAN dNSName is malformed');
        out.dnsNames.push(text());
        break;
      case URI: {
        if (!isIa5(data)) throw new CryptoError('x509: SAN uniformResourceIdentifier is malformed');
        // Go's url.Parse and Host check: the one implementation is the WASM core's (go-url.ts).
        const raw = text();
        const uri = goUrl(raw);
        if (!uri.ok) throw new CryptoError(uri.error);
        out.uris.push(raw);
        break;
      }
      case IP:
        if (data.length !== 4 && data.length !== 16) {
          throw new CryptoError(`x509: cannot parse IP address of length ${data.length}`);
        }
        out.ipAddresses.push(formatIp(data));
        break;
      default:
        // Other GeneralName forms (otherName, directoryName, ...) are ignored, as Go does.
        break;
    }
  }
  return out;
}

/** Go's net.IP.String(): dotted quad for IPv4 and IPv4-mapped IPv6, RFC 5952 for the rest. */
export function formatIp(ip: Uint8Array): string {
  if (ip.length === 4) return Array.from(ip).join('.');
  if (ip.length !== 16) throw new RangeError('IP address must be 4 or 16 bytes');
  if (ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff) {
    return Array.from(ip.subarray(12)).join('.');
  }
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip[i]! << 8) | ip[i + 1]!);
  // Longest run of zero groups (first on ties); a single zero group is not shortened.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hexes = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hexes.join(':');
  return `${hexes.slice(0, bestStart).join(':')}::${hexes.slice(bestStart + bestLen).join(':')}`;
}

/** Text IP (v4 or v6) to its 4 or 16 bytes; undefined when the text is not an IP address. */
export function parseIp(text: string): Uint8Array | undefined {
  const kind = isIP(text);
  if (kind === 4) return new Uint8Array(text.split('.').map(Number));
  // Zoned addresses (fe80::1%eth0) cannot go into a certificate.
  if (kind !== 6 || text.includes('%')) return undefined;
  let s = text;
  // A trailing dotted quad stands for the last two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = s.slice(0, v4.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const toGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const at = s.indexOf('::');
  let groups = toGroups(s);
  if (at >= 0) {
    const left = toGroups(s.slice(0, at));
    const right = toGroups(s.slice(at + 2));
    groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  }
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

/** Encodes a GeneralNames SEQUENCE (the subjectAltName extnValue), as Go's marshalSANs writes a template's names. */
export function encodeSubjectAltNames(names: Partial<SubjectAltNames>): Uint8Array {
  const ascii = (s: string, what: string): Uint8Array => {
    if (typeof s !== 'string' || !/^[\x00-\x7f]*$/.test(s)) throw new RangeError(`${what} must be ASCII: ${JSON.stringify(s)}`);
    return Buffer.from(s, 'latin1');
  };
  // Go's order: DNS names, emails, IPs, URIs.
  const parts: Uint8Array[] = [];
  for (const d of names.dnsNames ?? []) parts.push(tlv(DNS, ascii(d, 'DNS name')));
  for (const e of names.emailAddresses ?? []) parts.push(tlv(RFC822, ascii(e, 'email address')));
  for (const i of names.ipAddresses ?? []) {
    let bytes = parseIp(i);
    if (bytes === undefined) throw new RangeError(`invalid IP address: ${JSON.stringify(i)}`);
    // Like Go's ip.To4(): an IPv4-mapped address is written as 4 bytes.
    if (bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
      bytes = bytes.subarray(12);
    }
    parts.push(tlv(IP, bytes));
  }
  for (const u of names.uris ?? []) {
    // Go's templates hold parsed *url.URLs and marshalSANs writes their String().
    const uri = goUrl(Buffer.from(ascii(u, 'URI')).toString('latin1'), false);
    if (!uri.ok) throw new RangeError(`URI: ${uri.error}`);
    parts.push(tlv(URI, Buffer.from(uri.string, 'latin1')));
  }
  return seq(concat(parts));
}

export function hasAltNames(names: Partial<SubjectAltNames>): boolean {
  return [names.dnsNames, names.ipAddresses, names.emailAddresses, names.uris].some((l) => l !== undefined && l.length > 0);
}
