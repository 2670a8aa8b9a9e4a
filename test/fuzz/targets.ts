// The crypto entry points that take hostile bytes, each called through the facade (so the backend
// that serves them — TypeScript or the WASM core — is what is fuzzed). A target may return or
// throw CryptoError; anything else is a finding.
import { CryptoError, parseCsr, validateCertificatePem, verifyCsr } from '../../core/crypto/index.js';

export interface Finding { target: string; error: unknown }

export function runTarget(name: 'csr' | 'certificate-pem', input: Uint8Array | string): Finding | undefined {
  try {
    if (name === 'csr') {
      const parsed = parseCsr(input);
      verifyCsr(parsed);
    } else {
      const r = validateCertificatePem(input);
      if (typeof r.ok !== 'boolean') throw new TypeError('validateCertificatePem returned no verdict');
    }
    return undefined;
  } catch (e) {
    if (e instanceof CryptoError) return undefined;
    return { target: name, error: e };
  }
}
