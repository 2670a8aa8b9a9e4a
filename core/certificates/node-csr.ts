// The node-agent CSR checks that the approver and the signer share (upstream's
// ValidateKubeletServingCSR / ValidateKubeletClientCSR, k8s-behaviour §1.6): subject, SANs and
// usages of a node's serving and client certificate requests, and the ML-DSA usage rule for
// requests with an ML-DSA key (ml-dsa-usages.ts). Usages compare as sets.
import type { ParsedCsr } from '../crypto/index.js';
import { mlDsaUsageError } from './ml-dsa-usages.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a); const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

const SERVING_USAGES = [['digital signature', 'key encipherment', 'server auth'], ['digital signature', 'server auth']];
const CLIENT_USAGES = [['digital signature', 'key encipherment', 'client auth'], ['digital signature', 'client auth']];

function organizationIsNodes(req: ParsedCsr): string | undefined {
  return req.organizations.length === 1 && req.organizations[0] === NODES_GROUP ? undefined : 'subject organization is not system:nodes';
}

/** The first rule a node serving request breaks, or undefined. */
export function validateNodeServingCsr(req: ParsedCsr, usages: readonly string[]): string | undefined {
  return organizationIsNodes(req)
    ?? (req.dnsNames.length === 0 && req.ipAddresses.length === 0 ? 'DNS or IP subjectAltName is required' : undefined)
    ?? (req.emailAddresses.length ? 'Email subjectAltNames are not allowed' : undefined)
    ?? (req.uris.length ? 'URI subjectAltNames are not allowed' : undefined)
    ?? (SERVING_USAGES.some((u) => sameSet(u, usages)) ? undefined : 'usages did not match [digital signature key encipherment server auth]')
    ?? mlDsaUsageError(req, usages)
    ?? (req.commonName.startsWith(NODE_USER_PREFIX) ? undefined : 'subject common name does not begin with system:node:');
}

/** The first rule a node client request breaks, or undefined. */
export function validateNodeClientCsr(req: ParsedCsr, usages: readonly string[]): string | undefined {
  return organizationIsNodes(req)
    ?? (req.dnsNames.length ? 'DNS subjectAltNames are not allowed' : undefined)
    ?? (req.emailAddresses.length ? 'Email subjectAltNames are not allowed' : undefined)
    ?? (req.ipAddresses.length ? 'IP subjectAltNames are not allowed' : undefined)
    ?? (req.uris.length ? 'URI subjectAltNames are not allowed' : undefined)
    ?? (req.commonName.startsWith(NODE_USER_PREFIX) ? undefined : 'subject common name does not begin with system:node:')
    ?? (CLIENT_USAGES.some((u) => sameSet(u, usages)) ? undefined : 'usages did not match [client auth digital signature key encipherment]')
    ?? mlDsaUsageError(req, usages);
}
