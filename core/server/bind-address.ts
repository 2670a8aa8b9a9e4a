// Where a server listens for its --bind-address. Upstream listens on network "tcp": for an
// unspecified address (blank, 0.0.0.0 or ::) Go opens one dual-stack socket, so both families are
// served ("all interfaces and families", and the log says `Serving securely on [::]:10257`). Node
// does the same on `::` (ipv6Only is off by default); a host without IPv6 gets 0.0.0.0 instead, as
// Go falls back to IPv4 there.

export const isUnspecified = (addr: string): boolean => addr === '' || addr === '0.0.0.0' || addr === '::';

/** The hosts to try to listen on, in order. */
export const listenHosts = (bind: string): string[] => (isUnspecified(bind) ? ['::', '0.0.0.0'] : [bind]);

/** No IPv6 on this host: the next host is tried. */
const NO_IPV6 = new Set(['EAFNOSUPPORT', 'EADDRNOTAVAIL', 'EPROTONOSUPPORT']);

/** `open(host)` on the first of `listenHosts(bind)` the host supports. */
export async function listenOnBindAddress<T>(bind: string, open: (host: string) => Promise<T>): Promise<T> {
  const [first, ...rest] = listenHosts(bind);
  try {
    return await open(first!);
  } catch (e) {
    const fallback = rest[0];
    if (fallback === undefined || !NO_IPV6.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    return open(fallback);
  }
}

/** Go's net.JoinHostPort: an IPv6 host in brackets. */
export const joinHostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Go's config.Complete on the ExternalAddress: kept as given when net.SplitHostPort takes it
 * (`host:port`, `[v6]:port`), else joined with the serving port.
 */
export function withServingPort(hostOrHostPort: string, port: number): string {
  const hasPort = hostOrHostPort.startsWith('[') ? /\]:[^:\]]*$/.test(hostOrHostPort) : hostOrHostPort.split(':').length === 2;
  return hasPort ? hostOrHostPort : joinHostPort(hostOrHostPort, port);
}
