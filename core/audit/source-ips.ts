// utilnet.SourceIPs: the X-Forwarded-For chain, X-Real-Ip when not in it, then the peer's address
// unless it ends the chain already. Only addresses that parse are kept.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Go prints an IPv4-mapped IPv6 address as IPv4. */
function parseIp(s: string): string | undefined {
  const t = s.trim();
  if (!isIP(t)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
  return mapped ? mapped[1]! : t.toLowerCase();
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
