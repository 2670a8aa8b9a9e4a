// Failed TLS handshakes are logged as Go's http.Server logs them: `http: TLS handshake error from
// <client>: <reason>` (the API server and controller manager at V(5), through upstream's
// tlsHandshakeErrorWriter; the node agent at V(0), its server having no ErrorLog). Where OpenSSL's
// failure has an exact Go counterpart the reason is Go's text; otherwise it is OpenSSL's.
import type tls from 'node:tls';
import { formatVersions } from './client-hello.js';
import { readError, screenFirstRecord, type Peer } from './first-record.js';

/** node:tls's error for a client that closed the connection during the handshake. */
const DISCONNECTED = 'Client network socket disconnected before secure TLS connection was established';
/** node:net's error for a socket that ended while a TLS handshake still expected data. */
const SOCKET_HANG_UP = 'socket hang up';

export interface HandshakeErrorOptions {
  /** Go's handshake deadline (its smallest positive server timeout). */
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
  /** A reason of the server's own for a failure, taking precedence over the mapping (undefined: none). */
  readonly reasonFor?: (err: NodeJS.ErrnoException) => string | undefined;
}

/** Screens `server`'s first records (first-record.ts) and logs every failed handshake; call before it listens. */
export function logHandshakeErrors(server: tls.Server, o: HandshakeErrorOptions): void {
  const line = (peer: Peer, reason: string) => o.log(`http: TLS handshake error from ${peer.remote}: ${reason}`);
  const screen = screenFirstRecord(server, o.timeoutMs, line);
  server.on('tlsClientError', (err: NodeJS.ErrnoException & { reason?: string }, socket: tls.TLSSocket) => {
    const peer = screen.peerOf(socket);
    line(peer, o.reasonFor?.(err) ?? goReason(err, peer, screen.helloOf(socket)?.versions));
  });
}

function goReason(err: NodeJS.ErrnoException & { reason?: string }, peer: Peer, offered: readonly number[] | undefined): string {
  switch (err.code) {
    case 'ERR_SSL_UNSUPPORTED_PROTOCOL':
      if (offered) return `tls: client offered only unsupported versions: ${formatVersions(offered)}`;
      break;
    case 'ERR_SSL_NO_SHARED_CIPHER':
      return 'tls: no cipher suite supported by both client and server';
    case 'ERR_TLS_HANDSHAKE_TIMEOUT':
      return readError(peer, 'i/o timeout');
    case 'ECONNRESET':
      // A clean close (FIN) mid-handshake: Go's read sees io.EOF.
      if (err.message === DISCONNECTED || err.message === SOCKET_HANG_UP) return 'EOF';
      if (err.syscall === 'read') return readError(peer, 'read: connection reset by peer');
      break;
    default:
  }
  return err.reason ?? err.message;
}
