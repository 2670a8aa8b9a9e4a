// Go's http.Transport as client-go sets it up (utilnet.SetTransportDefaults) gives a TLS handshake
// 10 s (TLSHandshakeTimeout), then fails the request with `net/http: TLS handshake timeout`, which
// kubectl shows as `Unable to connect to the server: net/http: TLS handshake timeout`. Node's TLS
// has no such limit: a server that took the connection and never answered (a hung process, the
// wrong port) held a `plat csr` command (no --request-timeout by default) for good, and the other
// clients until their 30 s idle limit.
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type tls from 'node:tls';

export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** Ends `socket` with Go's error unless its handshake is done within `ms` of it starting (once connected). */
export function limitHandshake(socket: tls.TLSSocket, ms = TLS_HANDSHAKE_TIMEOUT_MS): void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => socket.destroy(new Error('net/http: TLS handshake timeout')), ms);
    timer.unref();
  };
  const disarm = () => clearTimeout(timer);
  // Before this the dial is under way, with its own limit (the request's idle timeout).
  if ((socket as { connecting?: boolean }).connecting) socket.once('connect', arm); else arm();
  socket.once('secureConnect', disarm);
  socket.once('close', disarm);
}

/** https.Agent whose connections' handshakes are limited as Go's transport limits them. */
export class HandshakeLimitedAgent extends https.Agent {
  override createConnection(...args: Parameters<https.Agent['createConnection']>): Duplex | null | undefined {
    const socket = super.createConnection(...args) as tls.TLSSocket | null | undefined;
    if (socket) limitHandshake(socket);
    return socket;
  }
}
