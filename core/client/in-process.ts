// The API server of the same process (`plat all`): the role that serves it provides how to reach
// it, with credentials, once it listens; parts that run inside that process (the embedded
// controller manager) ask for it when they start, instead of reading a kubeconfig.
import type { ClientConnection } from './connection.js';

const providers = new WeakMap<object, () => ClientConnection | undefined>();

/** Registers how parts of `host` reach its own API server (called before `start`). */
export function provideInProcessConnection(host: object, provider: () => ClientConnection | undefined): void {
  providers.set(host, provider);
}

/** The connection to `host`'s own API server: undefined when it has none or it does not serve yet. */
export function inProcessConnection(host: object): ClientConnection | undefined {
  return providers.get(host)?.();
}

/** True when `host` runs an API server its parts can reach (even before it serves). */
export function hasInProcessConnection(host: object): boolean {
  return providers.has(host);
}
