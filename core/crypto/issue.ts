// Issuing a certificate from a CSR: the pipeline every signer in plat uses (the signing controller,
// `plat ca sign`). Parse and proof of possession, then a v3 certificate with the CSR's subject
// (byte-exact) and public key, the SANs it asked for, the usages and validity of the policy, the
// issuer Name copied byte-exact from the CA certificate, and the CA's signature.
import type { KeyObject } from 'node:crypto';
import { parseCsr, verifyCsr, type ParsedCsr } from './csr.js';
import { DerReader } from './der.js';
import { CryptoError } from './errors.js';
import { keyUsagesFromStrings } from './usages.js';
import { createCertificate } from './x509-build.js';

export interface IssuePolicy {
  /** Kubernetes usage names (spec.usages). */
  readonly usages: readonly string[];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Issue a CA certificate (basicConstraints CA:TRUE). Default false. */
  readonly isCA?: boolean;
}

export interface IssuingCa {
  readonly certificatePem: string;
  readonly privateKey: KeyObject | string;
}

export interface IssueResult {
  readonly certificatePem: string;
  readonly der: Uint8Array;
  /** Which implementation did each step (shown by `plat bench crypto`). */
  readonly backend: { readonly parse: string; readonly verify: string; readonly build: string; readonly sign: string };
}

/** The subject Name of a CertificationRequest, as its DER bytes. */
function subjectNameDer(csrDer: Uint8Array): Uint8Array {
  const outer = new DerReader(csrDer);
  const request = outer.inner(outer.expect(0x30, 'CertificationRequest'));
  const info = request.inner(request.expect(0x30, 'CertificationRequestInfo'));
  info.expect(0x02, 'version');
  return info.element(info.expect(0x30, 'Name'));
}

/**
 * Issues a certificate for `request` (PEM, DER or an already parsed CSR). The CSR's self-signature
 * must verify: a CSR whose signature does not verify is refused with CryptoError.
 */
export function issueCertificate(request: string | Uint8Array | ParsedCsr, ca: IssuingCa, policy: IssuePolicy,
  options: { serialNumber?: Uint8Array } = {}): IssueResult {
  const csr = typeof request === 'string' || request instanceof Uint8Array ? parseCsr(request) : request;
  const verified = verifyCsr(csr);
  let usages;
  try {
    usages = keyUsagesFromStrings(policy.usages);
  } catch (e) {
    throw new CryptoError((e as Error).message);
  }
  const { certificatePem, der } = createCertificate({
    template: {
      subject: {},
      subjectDer: subjectNameDer(csr.der),
      serialNumber: options.serialNumber,
      notBefore: policy.notBefore,
      notAfter: policy.notAfter,
      isCA: policy.isCA ?? false,
      keyUsage: usages.keyUsage,
      extKeyUsage: usages.extKeyUsage,
      dnsNames: csr.dnsNames,
      ipAddresses: csr.ipAddresses,
      emailAddresses: csr.emailAddresses,
      uris: csr.uris,
    },
    publicKey: csr.publicKey.spki,
    issuer: ca,
    signer: ca.privateKey,
  });
  return { certificatePem, der, backend: { parse: 'typescript', verify: verified.backend, build: 'typescript', sign: 'node:crypto' } };
}
