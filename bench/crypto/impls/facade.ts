// `facade`: core/crypto as every caller in plat uses it (parseCsr, verifyCsr,
// validateCertificatePem, issueCertificate), with whatever backend DEFAULT_BACKENDS picks per
// operation and key type. The backend column is what the facade itself reports, so this row shows
// the choice and the `wasm` / `native` rows beside it show why.
import { createPrivateKey } from 'node:crypto';
import { DEFAULT_BACKENDS, issueCertificate, parseCsr, validateCertificatePem, verifyCsr } from '../../../core/crypto/index.js';
import { checkIssued } from '../check.js';
import { guarded, type BenchImpl, type Op, type Preparation } from '../impl.js';
import type { BenchInputs } from '../inputs.js';

function prepare(op: Op, inputs: BenchInputs): Promise<Preparation> {
  return guarded(() => {
    switch (op) {
      case 'parse': {
        if (parseCsr(inputs.csr.pem).commonName !== 'system:node:bench-worker-1') throw new Error('parse: wrong commonName');
        return { run: () => parseCsr(inputs.csr.pem), backend: DEFAULT_BACKENDS.parse };
      }
      case 'verify': {
        const csr = parseCsr(inputs.csr.pem);
        const { backend } = verifyCsr(csr); // throws unless the signature verifies
        return { run: () => verifyCsr(csr), backend };
      }
      case 'pem-validate': {
        const run = () => {
          const r = validateCertificatePem(inputs.chainPem);
          if (!r.ok) throw new Error(`pem-validate: ${r.error}`);
          return r;
        };
        if (run().certificates.length !== 2) throw new Error('pem-validate: expected 2 certificates');
        return { run, backend: DEFAULT_BACKENDS.pemValidate };
      }
      case 'issue': {
        const ca = { certificatePem: inputs.ca.certificatePem, privateKey: createPrivateKey(inputs.ca.privateKeyPem) };
        const run = () => issueCertificate(inputs.csr.pem, ca, inputs.policy);
        const first = run();
        checkIssued(first.certificatePem, inputs);
        const b = first.backend;
        return { run, backend: `parse ${b.parse}, verify ${b.verify}, build ${b.build}, sign ${b.sign}` };
      }
      default:
        throw new Error(`the facade has no ${op} entry point`);
    }
  });
}

export const facadeImpl: BenchImpl = {
  name: 'facade',
  supports: (op) => op !== 'sign',
  prepare,
};
