// What a signer answered, checked before anything is written: a third-party tap may return
// anything, and the API server's validation of status.certificate (the PEM rules) does not look at
// whose key the certificate certifies. A certificate that is not for the CSR's own public key
// would hand its requester a certificate it cannot use and, worse, someone else's identity: it is
// an error (logged, retried with backoff, never written), like any other failure of the signer.
import { DerReader, TAG } from '../../core/crypto/der.js';
import { CryptoError, parseCsr, samePublicKey, validateCertificatePem } from '../../core/crypto/index.js';
import type { SigningResult } from '../../core/signing.js';

/**
 * The signer's answer as a SigningResult, or an Error saying what is wrong with it; `by` names
 * the tap that answered (`plugin "MySigner"`, describeSignerTap).
 */
export function checkSignerAnswer(answer: unknown, requestPem: string, by?: string): SigningResult | undefined {
  if (answer === undefined) return undefined;
  try {
    return checkAnswer(answer, requestPem);
  } catch (e) {
    // Several plugins may tap one signerName: say which one answered this.
    if (by !== undefined && e instanceof Error) e.message += ` (answered by ${by})`;
    throw e;
  }
}

function checkAnswer(answer: unknown, requestPem: string): SigningResult {
  const o = answer as { certificatePem?: unknown; failed?: { reason?: unknown; message?: unknown } } | null;
  // Both at once says the tap does not know which it meant: neither is written on a guess.
  if (o?.certificatePem !== undefined && o.failed !== undefined) throw new Error('the signer answered both a certificatePem and failed; an answer is one or the other');
  if (o?.failed !== undefined && o.failed !== null && typeof o.failed === 'object') {
    const { reason, message } = o.failed;
    if (typeof reason !== 'string') throw new Error(`the signer answered failed without a reason: failed.reason must be a string (got ${typeName(reason)})`);
    if (typeof message !== 'string') throw new Error(`the signer answered failed without a message: failed.message must be a string (got ${typeName(message)})`);
  }
  if (typeof o?.certificatePem === 'string' && o.certificatePem.length > 0) {
    checkCertificate(o.certificatePem, requestPem);
    return { certificatePem: o.certificatePem };
  }
  if (o?.failed && typeof o.failed.reason === 'string' && typeof o.failed.message === 'string') {
    // A Failed condition is final: one without a reason would leave its requester nothing to go on.
    if (o.failed.reason === '') throw new Error('the signer answered failed with an empty reason');
    return { failed: { reason: o.failed.reason, message: o.failed.message } };
  }
  throw new Error(`the signer answered neither a certificatePem nor a failed reason and message: ${describe(answer)}`);
}

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** What an unusable answer was, briefly: `a string`, `an object with keys certificate`. */
function describe(answer: unknown): string {
  if (answer === null) return 'null';
  if (Array.isArray(answer)) return 'an array';
  if (typeof answer !== 'object') return `${/^[aeiou]/.test(typeof answer) ? 'an' : 'a'} ${typeof answer}`;
  const keys = Object.keys(answer);
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.join(', ')}`;
}

/** The PEM rules of status.certificate, and a first certificate for the CSR's public key. */
function checkCertificate(certificatePem: string, requestPem: string): void {
  const v = validateCertificatePem(certificatePem);
  if (!v.ok) throw new Error(`the signer's certificate is invalid: ${v.error}`);
  let same: boolean;
  try {
    const certKey = certificateSpki(v.certificates[0]!);
    const csrKey = parseCsr(requestPem).publicKey.spki;
    same = Buffer.from(certKey).equals(csrKey) || samePublicKey(certKey, csrKey);
  } catch (e) {
    if (e instanceof CryptoError) throw new Error(`the signer's certificate is invalid: ${e.message}`);
    throw e;
  }
  if (!same) throw new Error("the signer's certificate is not for the CSR's public key");
}

/**
 * The SubjectPublicKeyInfo of a certificate that validateCertificatePem accepted, found by walking
 * the TBSCertificate's first fields: a full parse checks the key's point too, ~10x the cost, and
 * every certificate the controller writes comes through here on the event loop.
 */
function certificateSpki(der: Uint8Array): Uint8Array {
  const outer = new DerReader(der);
  const cert = outer.inner(outer.expect(TAG.SEQUENCE, 'certificate'));
  const tbs = cert.inner(cert.expect(TAG.SEQUENCE, 'tbs'));
  tbs.optional(0xa0); // version
  tbs.expect(TAG.INTEGER, 'serial');
  for (const field of ['signature', 'issuer', 'validity', 'subject']) tbs.expect(TAG.SEQUENCE, field);
  return tbs.element(tbs.expect(TAG.SEQUENCE, 'subjectPublicKeyInfo'));
}
