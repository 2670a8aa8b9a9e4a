// The secure listener: HTTP/2 with HTTP/1.1 fallback over TLS. Client certificates are requested
// but not enforced by TLS; authenticators verify them (so one connection can carry any method).
import http2 from 'node:http2';
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

export async function listen(app: Koa<any>, o: ListenOptions): Promise<RunningServer> {
  const server = http2.createSecureServer({
    ...o.tls,
    allowHTTP1: true,
    requestCert: true,
    rejectUnauthorized: false,
    ALPNProtocols: o.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
    ...(o.minVersion ? { minVersion: o.minVersion } : {}),
    ...(o.maxStreamsPerConnection ? { settings: { maxConcurrentStreams: o.maxStreamsPerConnection } } : {}),
  }, app.callback() as unknown as Parameters<typeof http2.createSecureServer>[1]);
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
