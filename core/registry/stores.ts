// The serving stores of a host, by group/version/plural: set by whoever serves the API, read by
// plugins that need objects of another resource (an authenticator reading Secrets, admission
// checking that a namespace exists) without importing the plugin that serves it.
import type { Host } from '../host.js';
import type { Resources } from './registry.js';
import type { ResourceStore } from './store.js';

export const storeKey = (group: string, version: string, plural: string) => `${group}/${version}/${plural}`;

interface Served {
  resources: Resources;
  stores: ReadonlyMap<string, ResourceStore>;
  /** host:port clients outside reach the server at (--external-hostname, else the advertised address). */
  externalAddress?: string;
}
const served = new WeakMap<Host, Served>();

export function setServedStores(host: Host, resources: Resources, stores: ReadonlyMap<string, ResourceStore>, externalAddress?: string): void {
  served.set(host, { resources, stores, ...(externalAddress ? { externalAddress } : {}) });
}

/** The server's external host:port once it serves (externalized URLs such as the JWKS URI). */
export function servedExternalAddress(host: Host): string | undefined {
  return served.get(host)?.externalAddress;
}

/** The store of a resource once the API is served (after the API server's `start`), else undefined. */
export function servedStore(host: Host, group: string, version: string, plural: string): ResourceStore | undefined {
  return served.get(host)?.stores.get(storeKey(group, version, plural));
}

export function servedResources(host: Host): Resources | undefined {
  return served.get(host)?.resources;
}
