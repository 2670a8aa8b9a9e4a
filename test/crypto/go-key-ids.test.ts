// createCertificate's key identifiers, case by case, as Go's x509.CreateCertificate chooses them:
//   authorityKeyId := template.AuthorityKeyId
//   if !bytes.Equal(asn1Issuer, asn1Subject) && len(parent.SubjectKeyId) > 0 { authorityKeyId = parent.SubjectKeyId }
//   subjectKeyId := template.SubjectKeyId
//   if len(subjectKeyId) == 0 && template.IsCA { subjectKeyId = SHA-1 of the key bits }
// and an extension only for a non-empty value. Both builders (the WASM-backed facade and the
// TypeScript reference), each certificate's signature checked and each leaf verified by openssl.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createCertificate, createCertificateTypescript, generateKeyPair, parseCertificate, spkiOf, type CertificateTemplate, type CreateCertificateOptions,
} from '../../core/crypto/index.js';
import { opensslCa, opensslVerify } from '../helpers/openssl.js';

const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : Buffer.from(b).toString('hex'));
const now = Date.now();
const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) };

// Issuers: a CA plat made (SKI = SHA-1 of its key, Name CN=kid-ca as a PrintableString) and one
// openssl made without an SKI.
const caKey = generateKeyPair('ecdsa-p256');
const withSki = createCertificate({
  template: { subject: { commonName: 'kid-ca' }, ...validity, isCA: true, keyUsage: ['cert sign'] }, publicKey: caKey.keyObject, signer: caKey.keyObject,
});
const CA_SKI = hex(parseCertificate(withSki.certificatePem).subjectKeyId)!;
const noSki = opensslCa('/CN=no-ski-ca', 'ec-p256', { ski: 'none' });
const ISSUERS = {
  self: undefined,
  'CA with SKI': { certificatePem: withSki.certificatePem, privateKey: caKey.keyObject },
  'CA without SKI': { certificatePem: noSki.certPem, privateKey: noSki.keyPem },
} as const;

const subjectKey = generateKeyPair('ecdsa-p256');
const OWN_SKI = createHash('sha1').update(spkiOf(subjectKey.keyObject).subarray(-65)).digest('hex');

interface Case {
  name: string;
  issuer: keyof typeof ISSUERS;
  template: Partial<CertificateTemplate>;
  ski: string | undefined;
  aki: string | undefined;
}

const CASES: Case[] = [
  { name: 'self-signed CA: generated SKI, no AKI', issuer: 'self', template: { isCA: true }, ski: OWN_SKI, aki: undefined },
  { name: 'self-signed leaf: neither', issuer: 'self', template: {}, ski: undefined, aki: undefined },
  { name: 'self-signed CA with its own SKI: that one', issuer: 'self', template: { isCA: true, subjectKeyId: Buffer.from('c0ffee', 'hex') }, ski: 'c0ffee', aki: undefined },
  { name: 'self-signed with a template AKI: kept (issuer = subject)', issuer: 'self', template: { authorityKeyId: Buffer.from('aa01', 'hex') }, ski: undefined, aki: 'aa01' },
  { name: 'leaf of a CA with an SKI: AKI = its SKI, no SKI', issuer: 'CA with SKI', template: {}, ski: undefined, aki: CA_SKI },
  { name: 'leaf with a template AKI: the CA\'s SKI replaces it', issuer: 'CA with SKI', template: { authorityKeyId: Buffer.from('aa01', 'hex') }, ski: undefined, aki: CA_SKI },
  { name: 'leaf with its own SKI: written', issuer: 'CA with SKI', template: { subjectKeyId: Buffer.from('0102', 'hex') }, ski: '0102', aki: CA_SKI },
  { name: 'intermediate CA: generated SKI, AKI = the CA\'s SKI', issuer: 'CA with SKI', template: { isCA: true }, ski: OWN_SKI, aki: CA_SKI },
  { name: 'leaf whose subject is the CA\'s Name: no AKI', issuer: 'CA with SKI', template: { subject: { commonName: 'kid-ca' } }, ski: undefined, aki: undefined },
  { name: 'leaf whose subject is the CA\'s Name, with a template AKI: kept', issuer: 'CA with SKI', template: { subject: { commonName: 'kid-ca' }, authorityKeyId: Buffer.from('aa01', 'hex') }, ski: undefined, aki: 'aa01' },
  { name: 'leaf of a CA without SKI: no AKI (none computed)', issuer: 'CA without SKI', template: {}, ski: undefined, aki: undefined },
  { name: 'leaf of a CA without SKI, with a template AKI: kept', issuer: 'CA without SKI', template: { authorityKeyId: Buffer.from('aa01', 'hex') }, ski: undefined, aki: 'aa01' },
];

const BUILDERS = [['createCertificate (WASM TBS)', createCertificate], ['createCertificateTypescript', createCertificateTypescript]] as const;

for (const [label, build] of BUILDERS) {
  describe(`${label}: key identifiers as Go's CreateCertificate`, () => {
    for (const c of CASES) {
      it(c.name, () => {
        const issuer = ISSUERS[c.issuer];
        const opts: CreateCertificateOptions = {
          template: { subject: { commonName: 'subject' }, ...validity, keyUsage: ['digital signature'], ...c.template },
          publicKey: subjectKey.keyObject,
          signer: issuer === undefined ? subjectKey.keyObject : issuer.privateKey,
          ...(issuer === undefined ? {} : { issuer }),
        };
        const { certificatePem } = build(opts);
        const p = parseCertificate(certificatePem);
        assert.equal(hex(p.subjectKeyId), c.ski, 'SKI');
        assert.equal(hex(p.authorityKeyId), c.aki, 'AKI');
        const issuerPem = issuer?.certificatePem ?? certificatePem;
        assert.ok(new X509Certificate(certificatePem).verify(new X509Certificate(issuerPem).publicKey), 'signature');
        if (issuer !== undefined && !c.template.subject) {
          const r = opensslVerify(issuerPem, certificatePem);
          assert.equal(r.status, 0, r.stderr + r.stdout);
        }
      });
    }
    it('a key identifier that is not bytes is a TypeError', () => {
      for (const bad of [{ subjectKeyId: 'c0ffee' }, { authorityKeyId: [1, 2] }]) {
        assert.throws(() => build({
          template: { subject: { commonName: 'x' }, ...validity, ...(bad as unknown as Partial<CertificateTemplate>) },
          publicKey: createPublicKey(subjectKey.keyObject), signer: subjectKey.keyObject,
        }), TypeError);
      }
    });
  });
}
