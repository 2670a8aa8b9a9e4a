// ML-DSA (FIPS 204) as Go 1.27's crypto/x509 takes it from RFC 9881: pure ML-DSA with an empty
// context, the OID naming the parameter set, parameters absent, the raw encoded key in the BIT
// STRING. Verification by @noble/post-quantum (node 20's OpenSSL has no ML-DSA); the signature
// framing checks here only pick Go's error text (crypto/internal/fips140/mldsa sigDecode).
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { OID } from './oids.js';

export type MlDsaParameterSet = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';

interface Params {
  name: MlDsaParameterSet;
  publicKeySize: number;
  signatureSize: number;
  /** k and ω of FIPS 204 Table 1: the hint part is the last ω + k bytes of a signature. */
  k: number;
  omega: number;
  impl: typeof ml_dsa44;
}

const PARAMS: Readonly<Record<string, Params>> = {
  [OID.mlDsa44]: { name: 'ML-DSA-44', publicKeySize: 1312, signatureSize: 2420, k: 4, omega: 80, impl: ml_dsa44 },
  [OID.mlDsa65]: { name: 'ML-DSA-65', publicKeySize: 1952, signatureSize: 3309, k: 6, omega: 55, impl: ml_dsa65 },
  [OID.mlDsa87]: { name: 'ML-DSA-87', publicKeySize: 2592, signatureSize: 4627, k: 8, omega: 75, impl: ml_dsa87 },
};

const BY_NAME = Object.fromEntries(Object.values(PARAMS).map((p) => [p.name, p])) as Readonly<Record<MlDsaParameterSet, Params>>;

/** The parameter set an OID names (id-ml-dsa-44/65/87, the same OID for key and signature), else undefined. */
export function mlDsaParameterSet(oid: string): MlDsaParameterSet | undefined {
  return PARAMS[oid]?.name;
}

export function mlDsaPublicKeySize(set: MlDsaParameterSet): number {
  return BY_NAME[set].publicKeySize;
}

/**
 * Go's mldsa.Verify error text for `signature` over `message` under `publicKey` (raw encoding, of
 * the set's size), or undefined when the signature is valid.
 */
export function mlDsaVerifyError(set: MlDsaParameterSet, publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): string | undefined {
  const p = BY_NAME[set];
  if (signature.length !== p.signatureSize) return 'mldsa: invalid signature length';
  if (!hintsWellFormed(signature.subarray(p.signatureSize - p.omega - p.k), p.k, p.omega)) return 'mldsa: invalid signature encoding';
  let ok = false;
  try {
    ok = p.impl.verify(signature, message, publicKey);
  } catch {
    ok = false;
  }
  return ok ? undefined : 'mldsa: invalid signature';
}

/** FIPS 204 HintBitUnpack's well-formedness: per-row limits non-decreasing and ≤ ω, indexes increasing, unused slots zero. */
function hintsWellFormed(y: Uint8Array, k: number, omega: number): boolean {
  let idx = 0;
  for (let i = 0; i < k; i++) {
    const limit = y[omega + i]!;
    if (limit < idx || limit > omega) return false;
    const first = idx;
    for (; idx < limit; idx++) if (idx > first && y[idx - 1]! >= y[idx]!) return false;
  }
  for (let i = idx; i < omega; i++) if (y[i] !== 0) return false;
  return true;
}
