// SecureServingOptions.ApplyTo's error when its port cannot be opened, in Go's words:
// `failed to create listener: failed to listen on 127.0.0.1:10257: listen tcp 127.0.0.1:10257:
// bind: address already in use` (CreateListener's wrapping of net.Listen's *net.OpError), rather
// than Node's `listen EADDRINUSE: address already in use 127.0.0.1:10257`.

/** Go's syscall.Errno texts (Linux) for what a bind meets. */
const BIND_ERRNO_TEXT: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EACCES: 'permission denied',
};

/** `addr` as upstream joins it (net.JoinHostPort of the bind address and port). */
export function listenErrorText(addr: string, e: unknown): string {
  const reason = BIND_ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''];
  const cause = reason !== undefined ? `listen tcp ${addr}: bind: ${reason}` : (e as Error).message;
  return `failed to create listener: failed to listen on ${addr}: ${cause}`;
}
