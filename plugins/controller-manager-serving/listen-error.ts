// SecureServingOptions.ApplyTo's error when its port cannot be opened, in Go's words:
// `failed to create listener: failed to listen on 127.0.0.1:10257: listen tcp 127.0.0.1:10257:
// bind: address already in use` (CreateListener's wrapping of net.Listen's *net.OpError), rather
// than Node's `listen EADDRINUSE: address already in use 127.0.0.1:10257`.
import { ERRNO_TEXT } from '../../core/go-os-error.js';

/** `addr` as upstream joins it (net.JoinHostPort of the bind address and port). */
export function listenErrorText(addr: string, e: unknown): string {
  const reason = ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''];
  const cause = reason !== undefined ? `listen tcp ${addr}: bind: ${reason}` : (e as Error).message;
  return `failed to create listener: failed to listen on ${addr}: ${cause}`;
}
