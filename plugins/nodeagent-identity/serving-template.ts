// The serving certificate's template from the node's addresses (k8s-behaviour §5.2): a Hostname
// that parses as an IP counts as one, InternalIP/ExternalIP are IPs, InternalDNS/ExternalDNS and
// other hostnames DNS names; both lists de-duplicated and sorted; no template (so no CSR) while the
// node has no IP, or, with the AllowDNSOnlyNodeCSR gate (upstream's newGetTemplateFn), while it has
// neither an IP nor a DNS name.
import { isIP } from 'node:net';
import type { CertificateTemplate } from '../../core/client/certificate/request.js';
import type { NodeAddress } from '../../core/nodeagent/context.js';

export function servingTemplate(nodeName: string, addresses: readonly NodeAddress[] | undefined, allowDnsOnly: boolean): CertificateTemplate | undefined {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const a of addresses ?? []) {
    if (a.type === 'Hostname') (isIP(a.address) ? ips : dns).add(a.address);
    else if (a.type === 'InternalIP' || a.type === 'ExternalIP') ips.add(a.address);
    else if (a.type === 'InternalDNS' || a.type === 'ExternalDNS') dns.add(a.address);
  }
  const hasRequiredAddresses = ips.size > 0 || (allowDnsOnly && dns.size > 0);
  if (!hasRequiredAddresses) return undefined;
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], dnsNames: [...dns].sort(), ipAddresses: [...ips].sort() };
}

export function clientTemplate(nodeName: string): CertificateTemplate {
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], dnsNames: [], ipAddresses: [] };
}
