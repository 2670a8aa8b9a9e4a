// Go's ReadHeaderTimeout as upstream's SecureServingInfo.Serve sets it, 32s ("just shy of
// requestTimeoutUpperBound"): a client that has not finished its TLS handshake (Go's
// tlsHandshakeTimeout takes the smallest positive server timeout) or its request headers by then is
// dropped. node's own limits are 120s for the handshake and 60s for headers, checked every 30s.
import type http from 'node:http';
import type http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';

export const READ_HEADER_TIMEOUT_MS = 32_000;

/** The TLS server option; node reads it only when the server is made. */
export const tlsHandshakeTimeout = (ms: number = READ_HEADER_TIMEOUT_MS) => ({ handshakeTimeout: ms });

/**
 * HTTP/1.1 headers (the HTTP/2 server's fallback included), checked every second. node starts
 * that clock at a request's first byte, Go's at the connection's first read: a connection that
 * finished its handshake and never sends a request is dropped here too, when its first request
 * has not arrived in time. (HTTP/2 connections without a stream close after the idle timeout.)
 */
export function limitSlowHeaders(server: http.Server | http2.Http2SecureServer, ms: number = READ_HEADER_TIMEOUT_MS): void {
  const s = server as { headersTimeout?: number; connectionsCheckingInterval?: number };
  s.headersTimeout = ms;
  s.connectionsCheckingInterval = Math.min(1_000, ms);
  const waiting = new WeakMap<object, NodeJS.Timeout>();
  server.on('secureConnection', (socket: TLSSocket) => {
    // HTTP/2's clock is its preface (below).
    if (socket.alpnProtocol === 'h2') return;
    waiting.set(socket, setTimeout(() => socket.destroy(), ms).unref());
    socket.once('close', () => clearTimeout(waiting.get(socket)));
  });
  server.on('request', (req: http.IncomingMessage) => {
    const timer = waiting.get(req.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    waiting.delete(req.socket);
  });
}

/** x/net/http2's prefaceTimeout: an HTTP/2 connection whose client preface has not come by then is closed. */
export const PREFACE_TIMEOUT_MS = 10_000;

/**
 * The client's preface ends with its SETTINGS frame (node's 'remoteSettings'); a connection that
 * negotiated h2 and sent nothing, or half a preface, is dropped after PREFACE_TIMEOUT_MS, as Go's
 * server drops it, instead of waiting for the idle timeout.
 */
export function limitSlowPrefaces(server: http2.Http2SecureServer, ms: number = PREFACE_TIMEOUT_MS): void {
  server.on('session', (session: http2.ServerHttp2Session) => {
    const timer = setTimeout(() => session.destroy(), ms).unref();
    session.once('remoteSettings', () => clearTimeout(timer));
    session.once('close', () => clearTimeout(timer));
  });
}
