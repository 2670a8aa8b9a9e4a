// --node-ip as upstream reads and checks it: ParseNodeIPArgument at start-up (one IP or a
// dual-stack pair; unparseable entries are ignored with a log line; anything else stops start-up
// with `bad --node-ip "<value>": <why>`) and validateNodeIP whenever the node's addresses are
// computed (the IP must be a usable unicast address of one of the host's interfaces).
import type { HostNetwork } from './host-network.js';
import { formatIp, isLinkLocalUnicast, isLoopback, isMulticast, isUnspecified, parseIp, sameIp, type Ip } from '../../core/go-ip.js';

export interface ParsedNodeIps {
  readonly ips: readonly Ip[];
  /** Entries that are not IPs, ignored (upstream logs them). */
  readonly invalid: readonly string[];
}

/** ParseNodeIPArgument(nodeIP, cloudProvider): dual stack is allowed without a cloud provider or with `external`. */
export function parseNodeIpArgument(value: string, cloudProvider: string): ParsedNodeIps {
  const ips: Ip[] = [];
  const invalid: string[] = [];
  if (value !== '') {
    for (const raw of value.split(',')) {
      const text = raw.trim();
      const ip = parseIp(text);
      if (ip) ips.push(ip); else invalid.push(text);
    }
  }
  const allowDualStack = cloudProvider === '' || cloudProvider === 'external';
  let why: string | undefined;
  if (ips.length > 2 || (ips.length === 2 && ips[0]!.family === ips[1]!.family)) why = 'must contain either a single IP or a dual-stack pair of IPs';
  else if (ips.length === 2 && !allowDualStack) why = 'dual-stack not supported in this configuration';
  else if (ips.length === 2 && (isUnspecified(ips[0]!) || isUnspecified(ips[1]!))) why = "dual-stack node IP cannot include '0.0.0.0' or '::'";
  if (why) throw new Error(`bad --node-ip ${JSON.stringify(value)}: ${why}`);
  return { ips, invalid };
}

/** validateNodeIP: a unicast address, not loopback, link-local or unspecified, on one of the host's interfaces. */
export function validateNodeIp(ip: Ip, net: HostNetwork): void {
  if (isLoopback(ip)) throw new Error("nodeIP can't be loopback address");
  if (isMulticast(ip)) throw new Error("nodeIP can't be a multicast address");
  if (isLinkLocalUnicast(ip)) throw new Error("nodeIP can't be a link-local unicast address");
  if (isUnspecified(ip)) throw new Error("nodeIP can't be an all zeros address");
  for (const addrs of Object.values(net.interfaces())) {
    for (const a of addrs ?? []) {
      const own = parseIp(a.address);
      if (own && sameIp(own, ip)) return;
    }
  }
  throw new Error(`node IP: ${JSON.stringify(formatIp(ip))} not found in the host's network interfaces`);
}
