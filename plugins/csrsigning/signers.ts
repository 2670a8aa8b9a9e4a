// The four well-known signers the cluster CA serves and what each demands of a request before it
// signs (upstream's isRequestForSigner functions, k8s-behaviour §4.3 step 4). A broken rule is
// the Failed condition's message; legacy-unknown has none, to stay compatible.
import { mlDsaUsageError } from '../../core/certificates/ml-dsa-usages.js';
import { validateNodeClientCsr, validateNodeServingCsr } from '../../core/certificates/node-csr.js';
import type { ParsedCsr } from '../../core/crypto/index.js';

export const APISERVER_CLIENT_SIGNER = 'platform/apiserver-client';
export const NODEAGENT_CLIENT_SIGNER = 'platform/apiserver-client-nodeagent';
export const NODEAGENT_SERVING_SIGNER = 'platform/nodeagent-serving';
export const LEGACY_UNKNOWN_SIGNER = 'platform/legacy-unknown';

export type RequestCheck = (csr: ParsedCsr, usages: readonly string[]) => string | undefined;

/**
 * Usages of an API client certificate (upstream's validAPIServerClientUsages): client auth
 * required, digital signature and key encipherment optional; then, for an ML-DSA key, the ML-DSA
 * usage rule.
 */
export function validApiServerClientUsages(csr: ParsedCsr, usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  if (!clientAuth) return 'missing required usage for client certificate: client auth';
  return mlDsaUsageError(csr, usages);
}

export const REQUEST_CHECKS: Readonly<Record<string, RequestCheck>> = {
  [NODEAGENT_SERVING_SIGNER]: validateNodeServingCsr,
  [NODEAGENT_CLIENT_SIGNER]: validateNodeClientCsr,
  [APISERVER_CLIENT_SIGNER]: validApiServerClientUsages,
  [LEGACY_UNKNOWN_SIGNER]: () => undefined,
};
