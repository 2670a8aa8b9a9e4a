// Go's net.IP semantics that plat's address handling depends on (the node agent's address
// choice, audit events' source IPs): ParseIPSloppy (IPv4 octets may carry leading zeros; an
// IPv4-mapped IPv6 address is IPv4), the canonical text (net.IP.String), and the classes
// validateNodeIP and ChooseHostInterface test.
import { isIP } from 'node:net';

export interface Ip {
  readonly family: 4 | 6;
  /** 4 bytes for IPv4 (mapped addresses included), 16 for IPv6. */
  readonly bytes: Uint8Array;
}

const IPV4_SLOPPY = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

function parseV6(text: string): Uint8Array | undefined {
  if (text.includes('%') || isIP(text) !== 6) return undefined;
  let head = text;
  let v4Tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const m = IPV4_SLOPPY.exec(tail);
    if (!m) return undefined;
    v4Tail = m.slice(1).map(Number);
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.includes('::') ? head.split('::') as [string, string] : [head, undefined];
  const groups = (s: string | undefined): number[] => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const all = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => { bytes[2 * i] = g >> 8; bytes[2 * i + 1] = g & 0xff; });
  if (v4Tail.length) bytes.set(v4Tail, 12);
  return bytes;
}

const isMappedV4 = (b: Uint8Array): boolean => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** netutils.ParseIPSloppy; undefined when the text is not an IP. */
export function parseIp(text: string): Ip | undefined {
  const m = IPV4_SLOPPY.exec(text);
  if (m) {
    const octets = m.slice(1).map(Number);
    return octets.every((o) => o <= 255) ? { family: 4, bytes: Uint8Array.from(octets) } : undefined;
  }
  const v6 = parseV6(text);
  if (!v6) return undefined;
  return isMappedV4(v6) ? { family: 4, bytes: v6.slice(12) } : { family: 6, bytes: v6 };
}

/** net.IP.String(): dotted IPv4; RFC 5952 IPv6 (lower case, the longest run of two or more zero groups as ::). */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) return [...ip.bytes].join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

export const isUnspecified = (ip: Ip): boolean => ip.bytes.every((b) => b === 0);
export const isLoopback = (ip: Ip): boolean => (ip.family === 4 ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1);
export const isMulticast = (ip: Ip): boolean => (ip.family === 4 ? (ip.bytes[0]! & 0xf0) === 0xe0 : ip.bytes[0] === 0xff);
export const isLinkLocalUnicast = (ip: Ip): boolean =>
  (ip.family === 4 ? ip.bytes[0] === 169 && ip.bytes[1] === 254 : ip.bytes[0] === 0xfe && (ip.bytes[1]! & 0xc0) === 0x80);
const isBroadcast = (ip: Ip): boolean => ip.family === 4 && ip.bytes.every((b) => b === 255);

/** net.IP.IsGlobalUnicast: none of the special classes (private and unique-local addresses count). */
export const isGlobalUnicast = (ip: Ip): boolean =>
  !isUnspecified(ip) && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip) && !isBroadcast(ip);

export const sameIp = (a: Ip, b: Ip): boolean => a.family === b.family && a.bytes.every((x, i) => x === b.bytes[i]);
