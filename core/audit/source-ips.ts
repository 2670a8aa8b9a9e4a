// utilnet.SourceIPs: the X-Forwarded-For chain, X-Real-Ip when not in it, then the peer's address
// unless it ends the chain already. Only addresses that parse (netutils.ParseIPSloppy) are kept,
// written as Go's net.IP.String writes them.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * ParseIPSloppy then String: IPv4 parts may carry leading zeros (decimal, as Go before 1.17 read
 * them); IPv6 is written in its shortest form (WHATWG's serializer compresses the first longest
 * run of zero groups, as Go's does); an IPv4-mapped IPv6 address is written as IPv4.
 */
export function parseIp(s: string): string | undefined {
  const t = s.trim();
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(t);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    return parts.every((n) => n <= 255) ? parts.join('.') : undefined;
  }
  if (isIP(t) !== 6 || t.includes('%')) return undefined;
  let host: string;
  try { host = new URL(`http://[${t}]/`).hostname.slice(1, -1); } catch { return undefined; }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

const header = (req: IncomingMessage, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

export function sourceIps(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const forwarded = header(req, 'x-forwarded-for');
  if (forwarded) for (const part of forwarded.split(',')) { const ip = parseIp(part); if (ip) ips.push(ip); }
  const real = header(req, 'x-real-ip');
  if (real) { const ip = parseIp(real); if (ip && !ips.includes(ip)) ips.push(ip); }
  const remote = req.socket?.remoteAddress ? parseIp(req.socket.remoteAddress) : undefined;
  if (remote && (ips.length === 0 || ips[ips.length - 1] !== remote)) ips.push(remote);
  return ips;
}
