// What the cluster CA does with one approved request for one of its signers (upstream's
// signer.handle after the approval checks, and CertificateAuthority.Sign): the signer's request
// rules (a broken rule fails the CSR), then the usages and the lifetime window, then issuance in
// the signing pool. Every other failure is thrown, so the controller retries with backoff.
import { keyUsagesFromStrings, parseCsr } from '../../core/crypto/index.js';
import type { SigningPool } from '../../core/signing-pool/pool.js';
import type { SigningRequest, SigningResult } from '../../core/signing.js';
import type { CaProvider } from './ca-provider.js';
import { certificateTtl, validityWindow } from './lifetime.js';
import { REQUEST_CHECKS } from './signers.js';

export interface CaSignerOptions {
  readonly signer: string;
  /** The signer's CA; read the first time it is asked for (ClusterCas). */
  readonly provider: () => CaProvider;
  /** --cluster-signing-duration in milliseconds. */
  readonly maxTtlMs: number;
  readonly pool: () => SigningPool;
}

export function caSigner(o: CaSignerOptions): (req: SigningRequest) => Promise<SigningResult> {
  const check = REQUEST_CHECKS[o.signer];
  if (!check) throw new Error(`the cluster CA does not serve signer ${JSON.stringify(o.signer)}`);
  return async (req) => {
    let csr;
    try {
      csr = parseCsr(req.requestPem);
    } catch (e) {
      throw new Error(`unable to parse csr "${req.csr.metadata.name ?? ''}": ${(e as Error).message}`);
    }
    const problem = check(csr, req.usages);
    if (problem !== undefined) return { failed: { reason: 'SignerValidationFailure', message: problem } };

    const ca = o.provider().current();
    // PermissiveSigningPolicy.apply's order: the usages, then the window (an expired CA).
    try {
      keyUsagesFromStrings(req.usages);
    } catch (e) {
      throw new Error((e as Error).message);
    }
    const { notBefore, notAfter } = validityWindow(req.now, certificateTtl(o.maxTtlMs, req.expirationSeconds), ca.certificate.notAfter);
    const certificatePem = await o.pool().issue(req.requestPem, ca.poolCa, { usages: req.usages, notBefore, notAfter });
    return { certificatePem };
  };
}
