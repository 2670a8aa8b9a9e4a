// What Go's crypto/tls server does without being configured, and OpenSSL (node:tls) does not,
// for every secure server plat runs (API server, controller manager, node agent). Passed wherever
// a context is made or swapped in: node:tls rebuilds a server's context from the options
// setSecureContext is given, and takes nothing over from the old one.
import { constants } from 'node:crypto';
import type { SecureContextOptions } from 'node:tls';

/**
 * - No renegotiation: Go's server answers a ClientHello after the handshake with no_renegotiation
 *   (conn.go handleRenegotiation); OpenSSL would renegotiate a TLS 1.2 connection on request.
 * - The server's order of suites, not the client's (Go's pickCipherSuite), except that a client
 *   listing ChaCha20-Poly1305 first gets it (Go's aesgcmPreferred, OpenSSL's PRIORITIZE_CHACHA).
 * - Go 1.23's default curves, in its order: OpenSSL also offers X448 and the FFDHE groups.
 *   (Go's X25519Kyber768Draft00 has no OpenSSL 3.0 counterpart.)
 * - Session tickets valid for 7 days (Go's maxSessionTicketLifetime, the TLS 1.3 ticket's
 *   lifetime), not OpenSSL's 2 hours. OpenSSL sends the same hint in a TLS 1.2 ticket, where Go's is 0.
 */
export const GO_SERVER_SECURE_OPTIONS = constants.SSL_OP_NO_RENEGOTIATION | constants.SSL_OP_PRIORITIZE_CHACHA;
export const GO_CURVES = 'X25519:P-256:P-384:P-521';
export const GO_SESSION_TICKET_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** `options` with Go's server behaviour added; bits of secureOptions already set are kept. */
export function withGoServerDefaults<T extends SecureContextOptions>(options: T): T & { sessionTimeout: number } {
  return {
    ...options,
    secureOptions: (options.secureOptions ?? 0) | GO_SERVER_SECURE_OPTIONS,
    honorCipherOrder: true,
    ecdhCurve: GO_CURVES,
    sessionTimeout: GO_SESSION_TICKET_LIFETIME_SECONDS,
  };
}
