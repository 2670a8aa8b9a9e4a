// What the node agent reads of the host's network, behind an interface tests replace: the
// interfaces' addresses, the default routes (/proc/net/route and /proc/net/ipv6_route, as
// apimachinery's util/net reads them) and name resolution. chooseHostInterface is upstream's
// choice of "the machine's default IP" (util/net.ResolveBindAddress): the first global unicast
// address of the preferred family on an interface a default route goes through.
import { promises as dns } from 'node:dns';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { isGlobalUnicast, parseIp, type Ip } from '../../core/go-ip.js';

export interface HostNetwork {
  /** Addresses per interface that is up (os.networkInterfaces()). */
  interfaces(): Record<string, readonly { address: string; family: string; internal: boolean }[] | undefined>;
  /** Default routes, IPv4 then IPv6; undefined when the host has no /proc/net/route (not Linux). */
  defaultRoutes(): Promise<readonly DefaultRoute[] | undefined>;
  /** net.LookupIP: the addresses a name resolves to ([] when it does not). */
  lookup(name: string): Promise<string[]>;
}

export interface DefaultRoute { readonly interface: string; readonly family: 4 | 6 }

export const IPV4_ROUTE_FILE = '/proc/net/route';
export const IPV6_ROUTE_FILE = '/proc/net/ipv6_route';

/** getIPv4DefaultRoutes / getIPv6DefaultRoutes: the interfaces of the routes to 0/0 and ::/0. */
export function parseDefaultRoutes(ipv4: string, ipv6: string | undefined): DefaultRoute[] {
  const routes: DefaultRoute[] = [];
  for (const line of ipv4.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 2 && f[1] === '00000000') routes.push({ interface: f[0]!, family: 4 });
  }
  for (const line of (ipv6 ?? '').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 10 && f[0] === '0'.repeat(32) && f[1] === '00') routes.push({ interface: f[9]!, family: 6 });
  }
  return routes;
}

const readOrUndefined = async (path: string): Promise<string | undefined> => {
  try { return await readFile(path, 'utf8'); } catch { return undefined; }
};

export const realHostNetwork: HostNetwork = {
  interfaces: () => os.networkInterfaces(),
  async defaultRoutes() {
    const v4 = await readOrUndefined(IPV4_ROUTE_FILE);
    if (v4 === undefined) return undefined;
    return parseDefaultRoutes(v4, await readOrUndefined(IPV6_ROUTE_FILE));
  },
  async lookup(name) {
    try {
      return (await dns.lookup(name, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return [];
    }
  },
};

const familyOf = (f: string): 4 | 6 => (f === 'IPv6' || f === '6' ? 6 : 4);

/** The global unicast addresses of `family` on an interface, in the order the host lists them. */
function globalAddresses(net: HostNetwork, name: string, family: 4 | 6, loopbackToo = false): Ip[] {
  return (net.interfaces()[name] ?? [])
    .filter((a) => familyOf(a.family) === family && (loopbackToo || !a.internal))
    .map((a) => parseIp(a.address))
    .filter((ip): ip is Ip => ip !== undefined && ip.family === family && isGlobalUnicast(ip));
}

/**
 * chooseHostInterface(addressFamilies): through the default routes when the host has route files
 * (falling back to a global address on the loopback interface, for hosts that put it there), else
 * the first interface with a global address. Throws upstream's errors.
 */
export async function chooseHostInterface(net: HostNetwork, preferIPv4: boolean): Promise<Ip> {
  const families: (4 | 6)[] = preferIPv4 ? [4, 6] : [6, 4];
  const routes = await net.defaultRoutes();
  if (routes === undefined) {
    for (const family of families) {
      for (const name of Object.keys(net.interfaces())) {
        const ip = globalAddresses(net, name, family)[0];
        if (ip) return ip;
      }
    }
    throw new Error('no acceptable interface with global unicast address found on host');
  }
  if (routes.length === 0) throw new Error(`no default routes found in "${IPV4_ROUTE_FILE}" or "${IPV6_ROUTE_FILE}"`);
  for (const family of families) {
    for (const route of routes.filter((r) => r.family === family)) {
      const ip = globalAddresses(net, route.interface, family)[0];
      if (ip) return ip;
      const loopback = Object.entries(net.interfaces()).find(([, addrs]) => (addrs ?? []).some((a) => a.internal))?.[0];
      const onLoopback = loopback === undefined ? undefined : globalAddresses(net, loopback, family, true)[0];
      if (onLoopback) return onLoopback;
    }
  }
  throw new Error('unable to select an IP from default routes.');
}
