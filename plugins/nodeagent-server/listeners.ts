// The node agent's listeners. The secure one speaks HTTP/2 and HTTP/1.1 over TLS (as Go's server
// does), requests client certificates only when there is a client CA (upstream's
// RequestClientCert: verified by the authenticator, not refused by TLS), and changes its
// certificate in place: setSecureContext gives new handshakes the new pair while the listening
// socket and the connections already open stay as they are. Without a pair (serverTLSBootstrap
// waiting for its certificate) it listens all the same and every handshake fails, logged as Go's
// http.Server logs upstream's GetCertificate error. The others are plain HTTP/1.1.
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type Koa from 'koa';
import type { Logger } from '../../core/log.js';
import type { TlsPair } from '../../core/nodeagent/context.js';
import { joinHostPort, listenOnBindAddress } from '../../core/server/bind-address.js';
import { drainer } from '../../core/server/drain.js';
import { withGoServerDefaults } from '../../core/server/go-tls-options.js';
import { clearClientVerifyErrors } from '../../core/server/client-verify-errors.js';
import { logHandshakeErrors } from '../../core/server/handshake-errors.js';
import { closeIdleConnections } from '../../core/server/idle-timeout.js';
import { koaCallback } from '../../core/server/koa-callback.js';
import { servingPairProblem } from '../../core/server/serving-pair.js';
import type { TlsSettings } from '../../core/server/tls-settings.js';

/** What OpenSSL reports when a handshake fails for want of a certificate. */
const NO_CERTIFICATE_CODES = new Set(['ERR_SSL_NO_SHARED_CIPHER', 'ERR_SSL_NO_SUITABLE_SIGNATURE_ALGORITHM']);

/** node's default TLS handshake timeout, which this server keeps (first records are held to it too). */
const NODE_HANDSHAKE_TIMEOUT_MS = 120_000;

/** Go's http.DefaultMaxHeaderBytes, as upstream's servers set MaxHeaderBytes. */
const MAX_HEADER_BYTES = 1 << 20;

export interface Listening {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

export interface SecureListening extends Listening {
  /** Serves `pair` to every handshake from now on (null: fails them); throws (and keeps the old pair) when it is unusable. */
  usePair(pair: TlsPair | null): void;
}

export class BindError extends Error {
  override readonly name = 'BindError';
}

/** Listens on `host` (0.0.0.0, :: or blank: every interface of both families, as Go's listener). */
async function bind(server: http.Server | http2.Http2SecureServer, what: string, host: string, port: number): Promise<void> {
  const listenOn = (h: string) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, h, () => { server.off('error', reject); resolve(); });
  });
  try {
    await listenOnBindAddress(host, listenOn);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EADDRNOTAVAIL' ? 'address not available on this host'
      : e.code === 'EACCES' ? 'permission denied' : e.message;
    throw new BindError(`${what} cannot listen on ${joinHostPort(host, port)}: ${why}`);
  }
}

/**
 * The kubelet's servers are never shut down: its process exits under them. Here the listener
 * closes, idle connections close and HTTP/2 ones get a GOAWAY, and a response in progress is cut.
 */
function closer(server: http.Server | http2.Http2SecureServer): () => Promise<void> {
  const connections = drainer(server);
  return async () => { await connections.drain(0); };
}

/** Upstream's GetCertificate error while the certificate manager has no current certificate. */
const NO_SERVING_CERTIFICATE = 'no serving certificate available for the nodeagent';

export async function listenSecure(app: Koa, o: { host: string; port: number; pair: TlsPair | null; tls: TlsSettings; clientCa?: string; log: Logger }): Promise<SecureListening> {
  // Throws on a pair TLS cannot use: node:tls itself takes a key of another algorithm than the
  // certificate's, and then fails every handshake.
  const contextOptions = (pair: TlsPair | null): SecureContextOptions => {
    if (pair) {
      const problem = servingPairProblem(pair);
      if (problem) throw new Error(problem.reason);
    }
    const opts = withGoServerDefaults({
      ...(pair ? { cert: pair.cert, key: pair.key } : {}), minVersion: o.tls.minVersion,
      ciphers: o.tls.ciphers, ...(o.clientCa ? { ca: o.clientCa } : {}),
    });
    createSecureContext(opts);
    return opts;
  };
  // Fail before binding.
  const initial = contextOptions(o.pair);
  let certificateless = o.pair === null;
  const server = http2.createSecureServer({
    ...initial,
    allowHTTP1: true,
    requestCert: o.clientCa !== undefined,
    rejectUnauthorized: false,
    settings: { maxHeaderListSize: MAX_HEADER_BYTES },
  }, koaCallback(app));
  // The HTTP/1.1 fallback reads its header limit from this property, not from the options.
  (server as unknown as { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
  closeIdleConnections(server);
  clearClientVerifyErrors(server);
  const close = closer(server);
  // OpenSSL, with no certificate to offer, refuses the handshake itself (no shared cipher / no
  // suitable signature algorithm, alert handshake_failure where Go sends internal_error); the log
  // says why, as upstream's. Every failed handshake is logged at V(0): the kubelet's http.Server
  // has no ErrorLog, so its lines reach klog's default writer.
  logHandshakeErrors(server, {
    timeoutMs: NODE_HANDSHAKE_TIMEOUT_MS,
    log: (line) => o.log.info(line),
    reasonFor: (err) => (certificateless && NO_CERTIFICATE_CODES.has(err.code ?? '') ? NO_SERVING_CERTIFICATE : undefined),
  });
  await bind(server, 'the secure server', o.host, o.port);
  return {
    address: server.address() as AddressInfo,
    close,
    usePair: (pair) => {
      server.setSecureContext(contextOptions(pair));
      certificateless = pair === null;
    },
  };
}

/**
 * `idleTimeoutMs`: the read-only server's IdleTimeout (90 s); null for the health server, which
 * upstream serves with http.ListenAndServe, whose zero http.Server closes no idle connection
 * (node's default would close them after 5 s).
 */
export async function listenPlain(app: Koa, what: string, host: string, port: number, idleTimeoutMs: number | null): Promise<Listening> {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.callback());
  if (idleTimeoutMs === null) server.keepAliveTimeout = 0; // node's "no keep-alive timeout"
  else closeIdleConnections(server, idleTimeoutMs);
  const close = closer(server);
  await bind(server, what, host, port);
  return { address: server.address() as AddressInfo, close };
}
