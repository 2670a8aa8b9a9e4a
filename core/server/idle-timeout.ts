// Go's http.Server IdleTimeout as upstream's servers set it (the API server's and controller
// manager's SecureServingInfo.Serve, the kubelet's server): 90s, "matches http.DefaultTransport
// keep-alive timeout". An HTTP/1.1 connection waiting for its next request, or an HTTP/2 connection
// with no stream open, is closed after that long. Without it a connection a client forgot (a
// process that replaced its client, a bootstrap client no longer used) held a socket, and the
// identity it authenticated with, for the life of the server.
import type http from 'node:http';
import type http2 from 'node:http2';

export const IDLE_TIMEOUT_MS = 90_000;

export function closeIdleConnections(server: http.Server | http2.Http2SecureServer, ms: number = IDLE_TIMEOUT_MS): void {
  // HTTP/1.1, the HTTP/2 server's fallback included: read from the server at the end of each response.
  (server as { keepAliveTimeout?: number }).keepAliveTimeout = ms;
  // HTTP/2: Go counts idleness only while no stream is open, so a quiet watch keeps its
  // connection; node's session timeout counts any silence, so the streams are counted here.
  server.on('session', (session: http2.ServerHttp2Session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => { timer = setTimeout(() => session.close(), ms).unref(); };
    arm();
    session.on('stream', (stream: http2.ServerHttp2Stream) => {
      open++;
      clearTimeout(timer);
      stream.once('close', () => { if (--open === 0 && !session.closed && !session.destroyed) arm(); });
    });
    session.once('close', () => clearTimeout(timer));
  });
}
