// Upstream's ValidateMLDSAKeyUsages (pkg/apis/certificates/helpers.go), which the node serving and
// client checks and the apiserver-client signer apply to requests with an ML-DSA key
// (k8s-behaviour §1.6): a signature-only key may not ask for an encipherment or agreement usage,
// and must ask for at least one signing usage.
import type { ParsedCsr } from '../crypto/index.js';

const DISALLOWED = new Set(['key encipherment', 'key agreement', 'data encipherment', 'encipher only', 'decipher only']);
const AT_LEAST_ONE_OF = ['cert sign', 'content commitment', 'crl sign', 'digital signature'];

/** ValidateMLDSAKeyUsages: one line per broken rule (Go's errors.Join), usages in sorted order; undefined when none. */
export function validateMlDsaKeyUsages(usages: readonly string[]): string | undefined {
  const errors: string[] = [];
  let hasSigningUsage = false;
  // sets.String.List(): distinct and sorted (byte order; usages are ASCII).
  for (const u of [...new Set(usages)].sort()) {
    if (DISALLOWED.has(u)) errors.push(`usage ${u} cannot be used with an ML-DSA signed certificate request`);
    if (AT_LEAST_ONE_OF.includes(u)) hasSigningUsage = true;
  }
  if (!hasSigningUsage) errors.push(`usages must contain at least one of [${AT_LEAST_ONE_OF.join(' ')}]`);
  return errors.length ? errors.join('\n') : undefined;
}

/** The rule as the callers apply it: only to ML-DSA keys, wrapped as upstream wraps it. */
export function mlDsaUsageError(req: ParsedCsr, usages: readonly string[]): string | undefined {
  if (req.publicKey.algorithm !== 'ml-dsa') return undefined;
  const error = validateMlDsaKeyUsages(usages);
  return error === undefined ? undefined : `validating usages for ml-dsa key: ${error}`;
}
