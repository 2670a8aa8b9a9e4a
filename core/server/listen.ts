// The secure listener: HTTP/2 with HTTP/1.1 fallback over TLS, or HTTP/1.1 only when HTTP/2 is
// off. Client certificates are requested but not enforced by TLS; authenticators verify them (so
// one connection can carry any method). A TLS configuration or SNI set that changes (watched
// files) is swapped in for new handshakes; connections already open keep theirs, as Go's server.
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type SecureContext, type SecureContextOptions } from 'node:tls';
import type Koa from 'koa';
import { drainer } from './drain.js';
import { closeIdleConnections } from './idle-timeout.js';
import { withGoServerDefaults } from './go-tls-options.js';
import { clearClientVerifyErrors } from './client-verify-errors.js';
import { logHandshakeErrors } from './handshake-errors.js';
import { limitSlowHeaders, limitSlowPrefaces, READ_HEADER_TIMEOUT_MS, tlsHandshakeTimeout } from './slow-clients.js';
import { koaCallback } from './koa-callback.js';
import { PACED_CHUNK_BYTES } from './paced-body.js';
import type { CertKeyPem } from './serving-pair.js';
import type { SniCertificates } from './sni.js';
import type { Changing } from '../tls/changing.js';
import type { Logger } from '../log.js';

export interface ListenOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: SecureContextOptions | Changing<SecureContextOptions>;
  /** --tls-sni-cert-key: certificates chosen by SNI name, or by local address when none is sent. */
  readonly sni?: SniCertificates | Changing<SniCertificates>;
  readonly http2: boolean;
  /** Ask clients for a certificate (default true); without a client CA there is nothing to verify it against. */
  readonly requestCert?: boolean;
  readonly maxStreamsPerConnection?: number;
  readonly minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** Default IDLE_TIMEOUT_MS (upstream's 90s). */
  readonly idleTimeoutMs?: number;
  /** For the TLS handshake and HTTP/1.1 request headers; default READ_HEADER_TIMEOUT_MS (upstream's 32s). */
  readonly readHeaderTimeoutMs?: number;
  /** How long an HTTP/2 connection may take to send its client preface (Go's 10 s by default; tests shorten it). */
  readonly prefaceTimeoutMs?: number;
  /** Failed handshakes are logged here at V(5), as upstream's tlsHandshakeErrorWriter does. */
  readonly log?: Logger;
}

export interface RunningServer {
  readonly address: AddressInfo;
  /**
   * Stops accepting and drains (core/server/drain.ts): the requests in flight get up to
   * `timeoutMs` (default 0: cut at once) to finish. False when some had to be cut.
   */
  close(timeoutMs?: number): Promise<boolean>;
}

export const MAX_HEADER_BYTES = 1 << 20;
/**
 * Streams one HTTP/2 connection may have open when --http2-max-streams-per-connection is 0:
 * upstream's 100 (http2.initialMaxConcurrentStreams, what its clients assume), not node's unlimited.
 */
export const DEFAULT_MAX_STREAMS = 100;

/**
 * node's maxSessionMemory, in MB: its default 10 for the session's own state (header tables,
 * unacknowledged frames), plus room for every stream at once to have one paced chunk of its answer
 * queued (paced-body.ts). Past the limit node resets each new stream (ENHANCE_YOUR_CALM); with the
 * answers paced, only a client that has more than that queued unread meets it.
 */
export function sessionMemoryMb(maxStreams: number): number {
  return 10 + Math.ceil(maxStreams * PACED_CHUNK_BYTES / (1 << 20));
}

const isChanging = <T extends object>(v: T | Changing<T>): v is Changing<T> => typeof (v as Changing<T>).onChange === 'function';

export async function listen(app: Koa<any>, o: ListenOptions): Promise<RunningServer> {
  let tls = isChanging(o.tls) ? o.tls.current() : o.tls;
  let sni = o.sni && (isChanging(o.sni) ? o.sni.current() : o.sni);
  // SNI is looked at at all only when the flag named certificates; a value's names may change.
  const sniGiven = sni !== undefined && (sni.size > 0 || isChanging(o.sni!));
  let contexts = new Map<CertKeyPem | undefined, SecureContext>();
  // A context chosen by name replaces the default one whole, so it carries everything else of it
  // (client CA, ciphers, minimum version). An SNI name without a match gets the default
  // certificate, even where a local address chose another one for the connection.
  const contextFor = (pair: CertKeyPem | undefined): SecureContext => {
    let ctx = contexts.get(pair);
    if (!ctx) contexts.set(pair, ctx = createSecureContext(contextOptions(tls, o, pair)));
    return ctx;
  };
  const common = {
    ...withGoServerDefaults(tls),
    ...(sniGiven ? { SNICallback: (name: string, cb: (err: Error | null, ctx?: SecureContext) => void) => cb(null, contextFor(sni?.pairFor(name))) } : {}),
    requestCert: o.requestCert ?? true,
    rejectUnauthorized: false,
    // Go's http.DefaultMaxHeaderBytes: an oversized credential then reaches the authenticators and
    // is answered 401 with a Status, instead of a bare 431 from the HTTP parser.
    maxHeaderSize: MAX_HEADER_BYTES,
    ...(o.minVersion ? { minVersion: o.minVersion } : {}),
    ...tlsHandshakeTimeout(o.readHeaderTimeoutMs),
  };
  const callback = koaCallback(app);
  // http2.createSecureServer always offers h2 in ALPN (it overwrites ALPNProtocols), so HTTP/1.1
  // only (--disable-http2-serving) takes a plain https server.
  const maxStreams = o.maxStreamsPerConnection || DEFAULT_MAX_STREAMS;
  const server = o.http2
    ? http2.createSecureServer({
      ...common,
      allowHTTP1: true,
      maxSessionMemory: sessionMemoryMb(maxStreams),
      settings: { maxHeaderListSize: MAX_HEADER_BYTES, maxConcurrentStreams: maxStreams },
    }, callback)
    : https.createServer({ ...common, ALPNProtocols: ['http/1.1'] }, callback);
  // Upstream's GetConfigForClient: a client that sends no SNI name gets the certificate mapped to
  // the address it connected to. The choice must be made before the handshake, when the
  // connection arrives: the server's context is switched for it (tls.Server wraps the socket in
  // the same 'connection' event, after this listener), and only when it differs from the one in place.
  let inPlace: CertKeyPem | undefined;
  if (sniGiven) {
    server.prependListener('connection', (socket: import('node:net').Socket) => {
      const pair = sni?.pairForLocalAddress(socket.localAddress ?? '');
      if (pair === inPlace) return;
      inPlace = pair;
      server.setSecureContext(contextOptions(tls, o, pair));
    });
  }
  const swap = () => {
    contexts = new Map();
    inPlace = undefined;
    server.setSecureContext(contextOptions(tls, o, undefined));
  };
  const unsubscribe = [
    isChanging(o.tls) ? o.tls.onChange((next) => { tls = next; swap(); }) : () => {},
    o.sni && isChanging(o.sni) ? o.sni.onChange((next) => { sni = next; swap(); }) : () => {},
  ];
  logHandshakeErrors(server, { timeoutMs: o.readHeaderTimeoutMs ?? READ_HEADER_TIMEOUT_MS, log: (line) => o.log?.v(5).info(line) });
  clearClientVerifyErrors(server);
  // The HTTP/1.1 fallback of the http2 server reads the limit from this property, not its options.
  (server as unknown as { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
  closeIdleConnections(server, o.idleTimeoutMs);
  limitSlowHeaders(server, o.readHeaderTimeoutMs);
  limitSlowPrefaces(server as http2.Http2SecureServer, o.prefaceTimeoutMs);
  const connections = drainer(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  return {
    address: server.address() as AddressInfo,
    close: (timeoutMs = 0) => {
      for (const u of unsubscribe) u();
      return connections.drain(timeoutMs);
    },
  };
}

function contextOptions(tls: SecureContextOptions, o: ListenOptions, pair: CertKeyPem | undefined): SecureContextOptions {
  return withGoServerDefaults({ ...tls, ...(pair ? { cert: pair.cert, key: pair.key } : {}), ...(o.minVersion ? { minVersion: o.minVersion } : {}) });
}
