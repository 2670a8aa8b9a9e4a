// Validation of CSR status.certificate: the four rules of spec 01 with the Kubernetes messages
// (validateCertificate in pkg/apis/certificates/validation). Backend: TypeScript (PEM, DER split and
// structure) plus node:crypto's X509Certificate as a second, full parse of each certificate.
import { X509Certificate } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { firstElementLength, parseCertificateDer } from './certificate.js';
import { CryptoError } from './errors.js';
import { decodeFirstPemBlock } from './pem.js';

export type CertificatePemValidation = { ok: true; certificates: Uint8Array[] } | { ok: false; error: string };

/**
 * Checks PEM certificate data as Kubernetes validates `status.certificate`. Empty input is valid with
 * no certificates (Kubernetes allows an empty status.certificate); callers that need one must check.
 */
export function validateCertificatePem(data: Uint8Array | string): CertificatePemValidation {
  if (data.length === 0) return { ok: true, certificates: [] };
  const certificates: Uint8Array[] = [];
  let blocks = 0;
  let rest: Uint8Array | string = data;
  for (;;) {
    const found = decodeFirstPemBlock(rest);
    if (found === undefined) break;
    const { block } = found;
    if (block.label !== 'CERTIFICATE') {
      return { ok: false, error: `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.label)}` };
    }
    if (Object.keys(block.headers).length !== 0) return { ok: false, error: 'no PEM block headers are permitted' };
    blocks++;
    let inBlock: Uint8Array[];
    try {
      inBlock = splitCertificates(block.der);
    } catch (e) {
      if (e instanceof CryptoError) return { ok: false, error: e.message };
      throw e;
    }
    if (inBlock.length === 0) return { ok: false, error: 'found CERTIFICATE PEM block containing 0 certificates' };
    certificates.push(...inBlock);
    rest = found.rest;
  }
  if (blocks === 0) return { ok: false, error: 'must contain at least one CERTIFICATE PEM block' };
  return { ok: true, certificates };
}

/** Go's x509.ParseCertificates: one or more certificates back to back, each fully parsed. */
export function splitCertificates(der: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let rest = der;
  while (rest.length > 0) {
    const one = rest.subarray(0, firstElementLength(rest));
    parseCertificateDer(one);
    try {
      new X509Certificate(Buffer.from(one));
    } catch {
      throw new CryptoError('x509: malformed certificate');
    }
    out.push(one);
    rest = rest.subarray(one.length);
  }
  return out;
}
