// Self-checks run once per row before timing: a figure for an implementation that gives wrong
// answers is worse than no figure, so a row whose output fails here is reported "not available".
// The checks use node:crypto's X509Certificate and verify, independent of every implementation
// measured (including plat's own facade).
import { X509Certificate, createPublicKey, verify } from 'node:crypto';
import { Buffer } from 'node:buffer';
import type { BenchInputs } from './inputs.js';

/** An issued certificate (PEM or DER) must parse, verify under the bench CA, and carry the CSR's key and subject. */
export function checkIssued(cert: string | Uint8Array, inputs: BenchInputs): void {
  if (typeof cert === 'string' && !cert.startsWith('-----BEGIN CERTIFICATE-----\n')) throw new Error('issue: output is not CERTIFICATE PEM');
  const x = new X509Certificate(typeof cert === 'string' ? cert : Buffer.from(cert));
  const ca = new X509Certificate(inputs.ca.certificatePem);
  if (!x.verify(ca.publicKey)) throw new Error('issue: certificate signature does not verify under the CA');
  if (!x.checkIssued(ca)) throw new Error('issue: certificate issuer does not match the CA');
  const spki = x.publicKey.export({ type: 'spki', format: 'der' });
  if (!spki.equals(Buffer.from(inputs.csr.key.spki))) throw new Error('issue: certificate key is not the CSR key');
  if (!x.subject.includes('CN=system:node:bench-worker-1')) throw new Error(`issue: unexpected subject ${x.subject}`);
  if (!x.subjectAltName?.includes('DNS:bench-worker-1.cluster.local')) throw new Error('issue: SANs missing');
}

/** A raw signature over `inputs.message` must verify with the CA public key (ECDSA: SHA-256, DER or r||s). */
export function checkSignature(signature: Uint8Array, inputs: BenchInputs, ecdsaEncoding: 'der' | 'ieee-p1363' = 'der'): void {
  const key = createPublicKey({ key: Buffer.from(inputs.ca.spki), format: 'der', type: 'spki' });
  const ok = inputs.keyType === 'p256'
    ? verify('sha256', inputs.message, { key, dsaEncoding: ecdsaEncoding }, signature)
    : verify(null, inputs.message, key, signature);
  if (!ok) throw new Error('sign: signature does not verify with node:crypto');
}

/** A verify call must say yes for the bench CSR (and the loop measures the accepting path). */
export function checkTrue(result: unknown, what: string): void {
  if (result !== true) throw new Error(`${what}: expected true, got ${String(result)}`);
}
