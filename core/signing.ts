// The contract between the signing controller and signer plugins (hooks.sign.for(signerName)).
import type { ApiObject } from './api/meta.js';

export interface SigningRequest {
  readonly signerName: string;
  /** The approved CertificateSigningRequest. */
  readonly csr: ApiObject;
  /** PEM of spec.request. */
  readonly requestPem: string;
  readonly usages: readonly string[];
  readonly expirationSeconds?: number;
  readonly now: Date;
}

export type SigningResult =
  | { readonly certificatePem: string }
  /** The signer refuses: the controller adds a Failed condition with this reason and message. */
  | { readonly failed: { readonly reason: string; readonly message: string } };
