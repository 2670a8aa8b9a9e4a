// `noble`: pure-JavaScript signatures from @noble/curves (ECDSA P-256 with SHA-256, Ed25519); for
// `issue` combined with asn1js (asn1js-csr.ts reads the CSR, asn1js-x509.ts builds the certificate)
// and @noble/hashes SHA-1 for the key identifier. No node:crypto on any timed path.
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { EXT_KEY_USAGE_OIDS, KEY_USAGE_BITS, keyUsagesFromStrings } from '../../../core/crypto/index.js';
import { checkIssued, checkSignature, checkTrue } from '../check.js';
import { guarded, type BenchImpl, type Op, type Preparation } from '../impl.js';
import type { BenchInputs } from '../inputs.js';
import { readCsrAsn1js } from './asn1js-csr.js';
import { assembleCertificateAsn1js, buildTbsAsn1js, certificatePem } from './asn1js-x509.js';

const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const ED25519 = '1.3.101.112';

interface Signer {
  sign(msg: Uint8Array): Uint8Array;
  verify(sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): boolean;
  sigAlgOid: string;
}

function signer(inputs: BenchInputs): Signer {
  const priv = inputs.ca.privateRaw;
  return inputs.keyType === 'p256'
    ? {
      sign: (msg) => p256.sign(msg, priv, { prehash: true }).toDERRawBytes(),
      verify: (sig, msg, pub) => p256.verify(sig, msg, pub, { prehash: true, format: 'der' }),
      sigAlgOid: ECDSA_SHA256,
    }
    : {
      sign: (msg) => ed25519.sign(msg, priv),
      verify: (sig, msg, pub) => ed25519.verify(sig, msg, pub),
      sigAlgOid: ED25519,
    };
}

function prepareIssue(inputs: BenchInputs, s: Signer) {
  const { keyUsage, extKeyUsage } = keyUsagesFromStrings(inputs.policy.usages);
  const keyUsageBits = keyUsage.map((u) => KEY_USAGE_BITS[u]!);
  const extKeyUsageOids = extKeyUsage.map((u) => EXT_KEY_USAGE_OIDS[u]!);
  return () => {
    const csr = readCsrAsn1js(inputs.csr.pem);
    if (!s.verify(csr.signature, csr.info, csr.publicKey.raw)) throw new Error('CSR signature does not verify');
    const tbs = buildTbsAsn1js({
      sigAlgOid: s.sigAlgOid,
      issuerNameDer: inputs.ca.subjectNameDer,
      subjectNameDer: csr.subjectNameDer,
      spkiDer: csr.publicKey.spki,
      notBefore: inputs.policy.notBefore,
      notAfter: inputs.policy.notAfter,
      keyUsageBits,
      extKeyUsageOids,
      subjectKeyId: sha1(csr.publicKey.raw),
      authorityKeyId: inputs.ca.subjectKeyId,
      subjectAltNameDer: csr.subjectAltNameDer,
    });
    return certificatePem(assembleCertificateAsn1js(tbs, s.sigAlgOid, s.sign(new Uint8Array(tbs.toBER()))));
  };
}

function prepare(op: Op, inputs: BenchInputs): Promise<Preparation> {
  return guarded(() => {
    const s = signer(inputs);
    switch (op) {
      case 'verify': {
        const { signature, info, key } = inputs.csr;
        const run = () => s.verify(signature, info, key.publicRaw);
        checkTrue(run(), 'verify');
        return { run, backend: '@noble/curves (JS)' };
      }
      case 'sign': {
        const run = () => s.sign(inputs.message);
        checkSignature(run(), inputs);
        return { run, backend: '@noble/curves (JS)' };
      }
      case 'issue': {
        const run = prepareIssue(inputs, s);
        checkIssued(run(), inputs);
        return { run, backend: 'asn1js DER + @noble/curves + @noble/hashes (JS)' };
      }
      default:
        throw new Error(`noble does not measure ${op}`);
    }
  });
}

export const nobleImpl: BenchImpl = {
  name: 'noble',
  supports: (op) => op === 'verify' || op === 'sign' || op === 'issue',
  prepare,
};
