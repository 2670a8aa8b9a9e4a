// utilnet.SourceIPs: the X-Forwarded-For chain, X-Real-Ip when not in it, then the peer's address
// unless it ends the chain already. Only addresses that parse (netutils.ParseIPSloppy) are kept,
// written as Go's net.IP.String writes them.
import type { IncomingMessage } from 'node:http';
import { formatIp, parseIp as parseSloppy } from '../go-ip.js';

/** ParseIPSloppy then String, of the text trimmed; undefined when it is no IP. */
export function parseIp(s: string): string | undefined {
  const ip = parseSloppy(s.trim());
  return ip && formatIp(ip);
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
