// The messages between the signing pool and its worker threads. Plain data only (structured
// clone): PEM strings and numbers, never KeyObjects.

/** A CA as the workers see it: `id` names this exact certificate and key pair (a new pair, a new id). */
export interface PoolCa {
  readonly id: string;
  readonly certificatePem: string;
  /** PKCS#8 PEM; the worker imports it once per id. */
  readonly privateKeyPem: string;
}

/** One batch: many requests, one CA, one policy (what core/crypto issueCertificates takes). */
export interface BatchMessage {
  readonly id: number;
  readonly ca: PoolCa;
  readonly usages: readonly string[];
  /** Milliseconds since the epoch. */
  readonly notBefore: number;
  readonly notAfter: number;
  readonly isCA: boolean;
  readonly requests: readonly string[];
}

export type ItemResult = { readonly certificatePem: string } | { readonly error: string };

/** `results` in request order, or `failure` when the whole batch could not run. */
export type BatchReply =
  | { readonly id: number; readonly results: readonly ItemResult[] }
  | { readonly id: number; readonly failure: string };
