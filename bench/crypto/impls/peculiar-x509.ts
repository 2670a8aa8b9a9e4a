// `peculiar-x509`: @peculiar/x509 (schema-driven ASN.1 through @peculiar/asn1-schema) with
// @peculiar/webcrypto as its Crypto, the way a WebCrypto-based signer would issue certificates.
// @peculiar/x509 is a devDependency and needs the reflect-metadata polyfill; both load only when
// this implementation runs, and their absence makes the rows "not available".
import { Buffer } from 'node:buffer';
import { randomBytes, type webcrypto } from 'node:crypto';
import { EXT_KEY_USAGE_OIDS, KEY_USAGE_BITS, keyUsagesFromStrings } from '../../../core/crypto/index.js';
import { checkIssued, checkSignature, checkTrue } from '../check.js';
import { guarded, type BenchImpl, type Op, type Preparation } from '../impl.js';
import type { BenchInputs } from '../inputs.js';

type X509 = typeof import('@peculiar/x509');
type Crypto = webcrypto.Crypto;

let loaded: Promise<{ x509: X509; crypto: Crypto }> | undefined;

function load(): Promise<{ x509: X509; crypto: Crypto }> {
  loaded ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    const { Crypto: PeculiarCrypto } = await import('@peculiar/webcrypto');
    const crypto = new PeculiarCrypto() as unknown as Crypto;
    x509.cryptoProvider.set(crypto);
    return { x509, crypto };
  })();
  return loaded;
}

function sanOf(x509: X509, csr: InstanceType<X509['Pkcs10CertificateRequest']>) {
  const ext = csr.getExtension('2.5.29.17');
  return ext instanceof x509.SubjectAlternativeNameExtension ? ext : undefined;
}

function algorithms(inputs: BenchInputs) {
  return inputs.keyType === 'p256'
    ? { key: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } }
    : { key: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
}

function pkcs8(pem: string): Uint8Array {
  return new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
}

async function prepareIssue(x509: X509, crypto: Crypto, inputs: BenchInputs) {
  const alg = algorithms(inputs);
  const caKey = await crypto.subtle.importKey('pkcs8', pkcs8(inputs.ca.privateKeyPem), alg.key, false, ['sign']);
  const caCert = new x509.X509Certificate(inputs.ca.certificatePem);
  const caSki = Buffer.from(inputs.ca.subjectKeyId).toString('hex');
  const { keyUsage, extKeyUsage } = keyUsagesFromStrings(inputs.policy.usages);
  const flags = keyUsage.reduce((f, u) => f | (1 << KEY_USAGE_BITS[u]!), 0);
  const ekus = extKeyUsage.map((u) => EXT_KEY_USAGE_OIDS[u]!);
  return async () => {
    const csr = new x509.Pkcs10CertificateRequest(inputs.csr.pem);
    if (!(await csr.verify(crypto))) throw new Error('CSR signature does not verify');
    const san = sanOf(x509, csr);
    const serial = new Uint8Array(randomBytes(16));
    serial[0]! &= 0x7f;
    serial[0]! |= 0x01;
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: Buffer.from(serial).toString('hex'),
      subject: csr.subjectName,
      issuer: caCert.subjectName,
      notBefore: inputs.policy.notBefore,
      notAfter: inputs.policy.notAfter,
      publicKey: csr.publicKey,
      signingKey: caKey,
      signingAlgorithm: alg.sign,
      extensions: [
        new x509.KeyUsagesExtension(flags, true),
        new x509.ExtendedKeyUsageExtension(ekus),
        new x509.BasicConstraintsExtension(false, undefined, true),
        await x509.SubjectKeyIdentifierExtension.create(csr.publicKey, false, crypto),
        new x509.AuthorityKeyIdentifierExtension(caSki),
        ...(san ? [san] : []),
      ],
    }, crypto);
    return cert.toString('pem') + '\n';
  };
}

async function prepareOp(op: Op, inputs: BenchInputs): Promise<{ run: () => unknown; backend: string }> {
  const { x509, crypto } = await load();
  const lib = '@peculiar/x509 (asn1-schema)';
  switch (op) {
    case 'parse': {
      const run = () => {
        const csr = new x509.Pkcs10CertificateRequest(inputs.csr.pem);
        const san = sanOf(x509, csr);
        return { subject: csr.subject, names: san?.names.toJSON(), key: csr.publicKey.algorithm, sig: csr.signatureAlgorithm };
      };
      if (run().names?.length !== 4) throw new Error('parse: expected 4 SANs');
      return { run, backend: lib };
    }
    case 'verify': {
      const csr = new x509.Pkcs10CertificateRequest(inputs.csr.pem);
      const run = () => csr.verify(crypto);
      checkTrue(await run(), 'verify');
      return { run, backend: '@peculiar/webcrypto (node:crypto)' };
    }
    case 'pem-validate': {
      // The same four rules as Kubernetes: blocks present, each labelled CERTIFICATE, no headers,
      // each a certificate (parsed by @peculiar/x509).
      const run = () => {
        const blocks = x509.PemConverter.decodeWithHeaders(inputs.chainPem);
        if (blocks.length === 0) throw new Error('pem-validate: no PEM blocks');
        return blocks.map((b) => {
          if (b.type !== 'CERTIFICATE' || b.headers.length !== 0) throw new Error(`pem-validate: bad block ${b.type}`);
          return new x509.X509Certificate(b.rawData);
        });
      };
      if (run().length !== 2) throw new Error('pem-validate: expected 2 certificates');
      return { run, backend: lib };
    }
    case 'sign': {
      const alg = algorithms(inputs);
      const key = await crypto.subtle.importKey('pkcs8', pkcs8(inputs.ca.privateKeyPem), alg.key, false, ['sign']);
      const run = () => crypto.subtle.sign(alg.sign, key, inputs.message);
      checkSignature(new Uint8Array(await run()), inputs, 'ieee-p1363');
      return { run, backend: '@peculiar/webcrypto (node:crypto)' };
    }
    case 'issue': {
      const run = await prepareIssue(x509, crypto, inputs);
      checkIssued(await run(), inputs);
      return { run, backend: `${lib} + @peculiar/webcrypto (node:crypto)` };
    }
  }
}

export const peculiarX509Impl: BenchImpl = {
  name: 'peculiar-x509',
  supports: () => true,
  prepare: (op, inputs): Promise<Preparation> => guarded(() => prepareOp(op, inputs)),
};
