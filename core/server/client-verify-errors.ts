// A client certificate whose signature does not verify (a forgery naming a trusted CA as its
// issuer) leaves OpenSSL's error on the thread's error queue when the handshake completes
// (rejectUnauthorized is false: the authenticators decide). Node 20 does not clear it, and the
// connection's next read takes it for its own failure: the socket errors before the request is
// parsed, so the client gets an empty reply instead of a 401 and the log never sees the attempt
// (every time over TLS 1.2, often over 1.3). getPeerCertificate clears the queue on its way out
// (ClearErrorOnReturn), so it is called once on each connection whose chain OpenSSL refused.
import type tls from 'node:tls';

export function clearClientVerifyErrors(server: tls.Server): void {
  server.on('secureConnection', (socket: tls.TLSSocket) => {
    if (!socket.authorized) socket.getPeerCertificate();
  });
}
