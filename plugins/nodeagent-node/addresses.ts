// The NodeAddress status setter (pkg/kubelet/nodestatus), for a node agent without an in-tree cloud
// provider: --node-ip (validated against the host's interfaces each time), else a hostname that is
// an IP, else the node name's DNS addresses, else the host's default-route address; `::` as
// --node-ip prefers IPv6 in the last two steps. A dual-stack pair gives two InternalIPs. The
// Hostname address is always the agent's hostname. With --cloud-provider=external the given IPs
// go into the provided-node-ip annotation for the cloud controller, which owns the addresses.
import type { Node, NodeAddressEntry } from '../../core/nodes/node-object.js';
import { ANNOTATION_PROVIDED_NODE_IP } from '../../core/nodes/node-object.js';
import { chooseHostInterface, type HostNetwork } from './host-network.js';
import { formatIp, isUnspecified, parseIp, type Ip } from '../../core/go-ip.js';
import { validateNodeIp } from './node-ip.js';

export interface AddressInputs {
  readonly nodeIps: readonly Ip[];
  readonly hostname: string;
  readonly externalCloudProvider: boolean;
  readonly net: HostNetwork;
}

/** Sets node.status.addresses (and the provided-IP annotation); throws when no address can be found. */
export async function setNodeAddresses(node: Node, inputs: AddressInputs): Promise<void> {
  const [nodeIp, secondary] = inputs.nodeIps;
  const preferIPv4 = nodeIp === undefined || nodeIp.family === 4;
  const nodeIpSpecified = nodeIp !== undefined && !isUnspecified(nodeIp);
  const secondarySpecified = secondary !== undefined && !isUnspecified(secondary);
  if (nodeIpSpecified) {
    try { validateNodeIp(nodeIp, inputs.net); } catch (e) { throw new Error(`failed to validate nodeIP: ${(e as Error).message}`); }
  }
  if (secondarySpecified) {
    try { validateNodeIp(secondary, inputs.net); } catch (e) { throw new Error(`failed to validate secondaryNodeIP: ${(e as Error).message}`); }
  }

  if (inputs.externalCloudProvider && nodeIpSpecified) {
    node.metadata.annotations = { ...node.metadata.annotations, [ANNOTATION_PROVIDED_NODE_IP]: [nodeIp, ...(secondarySpecified ? [secondary] : [])].map(formatIp).join(',') };
  } else if (node.metadata.annotations) {
    delete node.metadata.annotations[ANNOTATION_PROVIDED_NODE_IP];
  }
  if (inputs.externalCloudProvider && ((node.status?.addresses?.length ?? 0) > 0 || !nodeIpSpecified)) return;

  let addresses: NodeAddressEntry[];
  if (nodeIpSpecified && secondarySpecified) {
    addresses = [{ type: 'InternalIP', address: formatIp(nodeIp) }, { type: 'InternalIP', address: formatIp(secondary) }];
  } else {
    const ip = nodeIpSpecified ? nodeIp : await defaultAddress(node.metadata.name ?? '', inputs, preferIPv4);
    addresses = [{ type: 'InternalIP', address: formatIp(ip) }];
  }
  addresses.push({ type: 'Hostname', address: inputs.hostname });
  node.status = { ...node.status, addresses };
}

async function defaultAddress(nodeName: string, inputs: AddressInputs, preferIPv4: boolean): Promise<Ip> {
  const fromHostname = parseIp(inputs.hostname);
  if (fromHostname) return fromHostname;
  let chosen: Ip | undefined;
  let error = '<nil>';
  for (const text of await inputs.net.lookup(nodeName)) {
    const ip = parseIp(text);
    if (!ip) continue;
    try { validateNodeIp(ip, inputs.net); } catch (e) { error = (e as Error).message; continue; }
    if ((ip.family === 4) === preferIPv4) { chosen = ip; break; }
    chosen ??= ip;
  }
  if (chosen) return chosen;
  try {
    return await chooseHostInterface(inputs.net, preferIPv4);
  } catch (e) {
    error = (e as Error).message;
  }
  throw new Error(`can't get ip address of node ${nodeName}. error: ${error}`);
}
