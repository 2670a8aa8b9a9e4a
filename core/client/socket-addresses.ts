// The two ends of a request's TCP connection, for Go's texts of a connection that broke after it
// was made (`read tcp 127.0.0.1:51234->127.0.0.1:6443: read: connection reset by peer`): Node's
// error names neither end, and a destroyed socket no longer knows them, so they are taken when
// the connection is made (or at once for a kept-alive one).
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketAddresses { localAddr?: string; remoteAddr?: string }

/** net.TCPAddr's String(): IPv6 in brackets, an IPv4-mapped IPv6 address as the IPv4 one. */
export function goTcpAddr(ip: string | undefined, port: number | undefined): string | undefined {
  if (!ip || port === undefined) return undefined;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (v4) return `${v4}:${port}`;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Records `req`'s connection ends as it gets them; the returned object fills in later. */
export function trackSocketAddresses(req: ClientRequest): SocketAddresses {
  const out: SocketAddresses = {};
  const take = (s: Socket) => {
    const local = goTcpAddr(s.localAddress, s.localPort);
    const remote = goTcpAddr(s.remoteAddress, s.remotePort);
    if (local && remote) { out.localAddr = local; out.remoteAddr = remote; }
  };
  req.once('socket', (s: Socket) => {
    if (s.connecting) s.once('connect', () => take(s));
    else take(s);
  });
  return out;
}
