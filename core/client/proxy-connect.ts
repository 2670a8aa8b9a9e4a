// A kubeconfig cluster's proxy-url, as Go's http.Transport uses a proxy for an https server: a
// tunnel to the server's host:port, then TLS to the server inside it. An http or https proxy is
// asked with CONNECT (Proxy-Authorization Basic from the proxy URL's user info; an https proxy is
// reached over TLS with the transport's own settings, the cluster's CA and client pair, named by
// the proxy's host, as Go's); a socks5 proxy with SOCKS5's CONNECT (socks-connect.ts).
import { setMaxListeners } from 'node:events';
import type http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { socksTunnel } from './socks-connect.js';
import { limitHandshake } from './tls-handshake-timeout.js';

/** Go's parseProxyURL (clientcmd): the schemes a kubeconfig may name; url.Parse's failure as its own text. */
export function parseProxyUrl(text: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error(`could not parse: ${text}`);
  }
  // url.Parse unescapes the user info and fails on an escape that is none (WHATWG keeps it).
  if (/%(?![0-9a-fA-F]{2})/.test(`${u.username}:${u.password}`)) throw new Error(`could not parse: ${text}`);
  const scheme = u.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'socks5') throw new Error(`unsupported scheme ${JSON.stringify(scheme)}, must be http, https, or socks5`);
  return u;
}

const MAX_RESPONSE_HEAD = 64 << 10;
/** Go's Transport gives a CONNECT without a deadline of its own one minute to be answered. */
export const PROXY_CONNECT_TIMEOUT_MS = 60_000;

/**
 * Opens the tunnel: resolves with the socket once the proxy answered 200, rejects with Go's text
 * otherwise; a proxy that closes before its answer is complete is `unexpected EOF`
 * (http.ReadResponse), one that never answers `context deadline exceeded`.
 */
function connectTunnel(proxy: URL, target: string, tlsOptions: tls.ConnectionOptions, timeoutMs: number): Promise<Duplex> {
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const socket: net.Socket = proxy.protocol === 'https:'
    ? tls.connect({ ...tlsOptions, host, port, ...(net.isIP(host) ? {} : { servername: host }) })
    : net.connect({ host, port });
  const auth = proxy.username || proxy.password
    ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`
    : '';
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const cut = () => fail(new Error('unexpected EOF'));
    const timer = setTimeout(() => fail(new Error('context deadline exceeded')), timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('end', cut);
      socket.off('close', cut);
    };
    const fail = (e: Error) => { settle(); socket.destroy(); reject(e); };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_RESPONSE_HEAD) fail(new Error('proxy answered CONNECT with an oversized header'));
        return;
      }
      settle();
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const [, code, text] = /^HTTP\/\d\.\d (\d{3})(?: (.*))?$/.exec(status) ?? [];
      // Go's persistConn: a non-200 answer fails the dial with the status text alone.
      if (code !== '200') { fail(new Error(text ?? 'unknown status code')); return; }
      const extra = head.subarray(end + 4);
      if (extra.length > 0) socket.unshift(extra);
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('end', cut);
    socket.once('close', cut);
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  });
}

/** An https.Agent whose connections go through the proxy. */
export class ProxyAgent extends https.Agent {
  readonly #closed = new AbortController();

  constructor(private readonly proxy: URL, private readonly tlsOptions: https.AgentOptions, private readonly connectTimeoutMs = PROXY_CONNECT_TIMEOUT_MS) {
    super(tlsOptions);
    // Each pending SOCKS handshake listens until it ends: up to maxSockets at once, no leak.
    setMaxListeners(0, this.#closed.signal);
  }

  override destroy(): void {
    this.#closed.abort();
    super.destroy();
  }

  #tunnel(host: string, port: number): Promise<Duplex> {
    if (this.proxy.protocol === 'socks5:') return socksTunnel(this.proxy, host, port, this.#closed.signal);
    const target = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
    return connectTunnel(this.proxy, target, this.tlsOptions as tls.ConnectionOptions, this.connectTimeoutMs);
  }

  // The callback form: the tunnel is asynchronous.
  override createConnection(o: https.RequestOptions & tls.ConnectionOptions, cb?: (err: Error | null, stream: Duplex) => void): undefined {
    const host = String(o.host ?? o.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
    this.#tunnel(host, Number(o.port ?? 443)).then((tunnel) => {
      const servername = o.servername ?? (net.isIP(host) ? undefined : host);
      const secure = tls.connect({ ...o, socket: tunnel as net.Socket, host, ...(servername ? { servername } : {}) });
      limitHandshake(secure);
      cb?.(null, secure);
    }, (e: Error) => cb?.(e, undefined as never));
    return undefined;
  }
}

/**
 * Node tells a request of its abort only once the request has a socket, and one still waiting for
 * its tunnel (a silent proxy) has none: such a request is failed at the abort instead, as Go's
 * RoundTrip returns when its context ends while the dial goes on. Node's own AbortError.
 */
export function failOnAbortWhileTunnelling(req: http.ClientRequest, signal: AbortSignal | undefined, reject: (e: Error) => void): void {
  if (!signal || !((req as { agent?: unknown }).agent instanceof ProxyAgent)) return;
  const onAbort = () => reject(Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' }));
  const done = () => signal.removeEventListener('abort', onAbort);
  signal.addEventListener('abort', onAbort, { once: true });
  req.once('socket', done);
  req.once('error', done);
}
