// The secure listener: HTTP/2 with HTTP/1.1 fallback over TLS, or HTTP/1.1 only when HTTP/2 is
// off. Client certificates are requested but not enforced by TLS; authenticators verify them (so
// one connection can carry any method).
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions } from 'node:tls';
import type Koa from 'koa';

export interface ListenOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: SecureContextOptions & { SNICallback?: (servername: string, cb: (err: Error | null, ctx?: import('node:tls').SecureContext) => void) => void };
  readonly http2: boolean;
  readonly maxStreamsPerConnection?: number;
  readonly minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
}

export interface RunningServer {
  readonly address: AddressInfo;
  /** Stops accepting, closes idle and remaining connections. */
  close(): Promise<void>;
}

export const MAX_HEADER_BYTES = 1 << 20;

export async function listen(app: Koa<any>, o: ListenOptions): Promise<RunningServer> {
  const common = {
    ...o.tls,
    requestCert: true,
    rejectUnauthorized: false,
    // Go's http.DefaultMaxHeaderBytes: an oversized credential then reaches the authenticators and
    // is answered 401 with a Status, instead of a bare 431 from the HTTP parser.
    maxHeaderSize: MAX_HEADER_BYTES,
    ...(o.minVersion ? { minVersion: o.minVersion } : {}),
  };
  // http2.createSecureServer always offers h2 in ALPN (it overwrites ALPNProtocols), so HTTP/1.1
  // only (--disable-http2-serving) takes a plain https server.
  const server = o.http2
    ? http2.createSecureServer({
      ...common,
      allowHTTP1: true,
      settings: { maxHeaderListSize: MAX_HEADER_BYTES, ...(o.maxStreamsPerConnection ? { maxConcurrentStreams: o.maxStreamsPerConnection } : {}) },
    }, app.callback() as unknown as Parameters<typeof http2.createSecureServer>[1])
    : https.createServer({ ...common, ALPNProtocols: ['http/1.1'] }, app.callback());
  // The HTTP/1.1 fallback of the http2 server reads the limit from this property, not its options.
  (server as unknown as { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<import('node:net').Socket>();
  server.on('session', (s) => { sessions.add(s); s.on('close', () => sessions.delete(s)); });
  server.on('secureConnection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  return {
    address: server.address() as AddressInfo,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sessions) s.close();
      for (const s of sockets) s.destroy();
    }),
  };
}
