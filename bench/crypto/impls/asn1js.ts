// `asn1js`: CSR parse only, through the schema-free asn1js reading (asn1js-csr.ts). The baseline
// of issue 3's "WASM parse at least 10 x the asn1js-based parse" target.
import { guarded, type BenchImpl, type Op, type Preparation } from '../impl.js';
import type { BenchInputs } from '../inputs.js';
import { readCsrAsn1js } from './asn1js-csr.js';

function prepare(_op: Op, inputs: BenchInputs): Promise<Preparation> {
  return guarded(() => {
    const csr = readCsrAsn1js(inputs.csr.pem);
    if (csr.commonName !== 'system:node:bench-worker-1' || csr.dnsNames.length !== 2 || csr.ipAddresses.length !== 2) {
      throw new Error('parse: asn1js reading disagrees with the bench CSR');
    }
    return { run: () => readCsrAsn1js(inputs.csr.pem), backend: 'asn1js (JS)' };
  });
}

export const asn1jsImpl: BenchImpl = {
  name: 'asn1js',
  supports: (op) => op === 'parse',
  prepare,
};
