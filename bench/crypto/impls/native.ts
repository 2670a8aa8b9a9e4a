// `native`: plat's TypeScript + node:crypto path, the one the facade had before the WASM core
// (kept in core/crypto as the reference and cold path): TypeScript PEM/DER parsing, node:crypto
// signatures and key imports, the TypeScript certificate builder (createCertificate).
import { createPrivateKey, sign as nodeSign } from 'node:crypto';
import {
  createCertificate,
  keyUsagesFromStrings,
  parseCsrTypescript,
  validateCertificatePemTypescript,
  verifyCsrTypescript,
} from '../../../core/crypto/index.js';
import { checkIssued, checkSignature } from '../check.js';
import { guarded, type BenchImpl, type Op, type Preparation, type Prepared } from '../impl.js';
import { derChildren, type BenchInputs } from '../inputs.js';

function prepareIssue(inputs: BenchInputs): Prepared {
  const ca = { certificatePem: inputs.ca.certificatePem, privateKey: createPrivateKey(inputs.ca.privateKeyPem) };
  const run = () => {
    const csr = parseCsrTypescript(inputs.csr.pem);
    verifyCsrTypescript(csr);
    const { keyUsage, extKeyUsage } = keyUsagesFromStrings(inputs.policy.usages);
    const subject = derChildren(csr.der, derChildren(csr.der)[0]!.start)[1]!;
    return createCertificate({
      template: {
        subject: {},
        subjectDer: csr.der.subarray(subject.start, subject.end),
        notBefore: inputs.policy.notBefore,
        notAfter: inputs.policy.notAfter,
        keyUsage,
        extKeyUsage,
        dnsNames: csr.dnsNames,
        ipAddresses: csr.ipAddresses,
        emailAddresses: csr.emailAddresses,
        uris: csr.uris,
      },
      publicKey: csr.publicKey.spki,
      issuer: ca,
      signer: ca.privateKey,
    }).certificatePem;
  };
  checkIssued(run(), inputs);
  return { run, backend: 'typescript DER + node:crypto' };
}

function prepare(op: Op, inputs: BenchInputs): Promise<Preparation> {
  return guarded(() => {
    switch (op) {
      case 'parse': {
        if (parseCsrTypescript(inputs.csr.pem).commonName !== 'system:node:bench-worker-1') throw new Error('parse: wrong commonName');
        // P-256 keys are also loaded by node:crypto (createPublicKey) to check the point.
        return { run: () => parseCsrTypescript(inputs.csr.pem), backend: inputs.keyType === 'p256' ? 'typescript + node:crypto point check' : 'typescript' };
      }
      case 'verify': {
        const csr = parseCsrTypescript(inputs.csr.pem);
        const { backend } = verifyCsrTypescript(csr); // throws unless the signature verifies
        return { run: () => verifyCsrTypescript(csr), backend: `${backend} (SPKI import + verify)` };
      }
      case 'pem-validate': {
        const run = () => {
          const r = validateCertificatePemTypescript(inputs.chainPem);
          if (!r.ok) throw new Error(`pem-validate: ${r.error}`);
          return r;
        };
        if (run().certificates.length !== 2) throw new Error('pem-validate: expected 2 certificates');
        return { run, backend: 'typescript + node:crypto X509Certificate' };
      }
      case 'sign': {
        const key = createPrivateKey(inputs.ca.privateKeyPem);
        const run = inputs.keyType === 'p256'
          ? () => nodeSign('sha256', inputs.message, { key, dsaEncoding: 'der' })
          : () => nodeSign(null, inputs.message, key);
        checkSignature(run(), inputs);
        return { run, backend: 'node:crypto' };
      }
      case 'issue':
        return prepareIssue(inputs);
    }
  });
}

export const nativeImpl: BenchImpl = {
  name: 'native',
  supports: () => true,
  prepare,
};
