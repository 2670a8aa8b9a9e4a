// Subjects plat writes itself (createCsr, as client-go's MakeCSR; createCertificate, both builders)
// byte for byte as Go's pkix.Name.ToRDNSequence + asn1.Marshal write them: attribute types in the
// order C, ST, L, street, postalCode, O, OU, CN, serialNumber; all values of one type in ONE RDN
// (appendRDNs), its members sorted by their DER encoding (encoding/asn1 sorts SET OF); an empty
// list or an empty CN / serialNumber left out; PrintableString unless a character needs UTF8String.
// The expected DER is written out by hand. The issuing pipeline's own re-encoding of a CSR subject
// (wasm/assembly/go-subject.ts, what upstream's signer writes) must leave each one unchanged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createCertificate, createCertificateTypescript, createCsr, generateKeyPair, issueCertificate, parseCertificate, parseCsr,
} from '../../core/crypto/index.js';
import { readTlv } from '../../core/crypto/der.js';
import { encodeName, type SubjectInput } from '../../core/crypto/names.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const h = (s: string): string => s.replace(/\s+/g, '');

const CASES: { name: string; subject: SubjectInput; der: string }[] = [
  {
    name: 'two O values: one RDN (plat csr create --org g1 --org g2 --cn u)',
    subject: { commonName: 'u', organizations: ['g1', 'g2'] },
    der: `30 24
      31 16 30 09 06 03 55 04 0a 13 02 67 31   30 09 06 03 55 04 0a 13 02 67 32
      31 0a 30 08 06 03 55 04 03 13 01 75`,
  },
  {
    name: 'values sorted by encoding, not kept in the given order',
    subject: { organizations: ['b', 'a'] },
    der: `30 16 31 14 30 08 06 03 55 04 0a 13 01 61   30 08 06 03 55 04 0a 13 01 62`,
  },
  {
    name: 'sorted by DER bytes: the shorter encoding first, whatever the text',
    subject: { organizations: ['bb', 'a'] },
    der: `30 17 31 15 30 08 06 03 55 04 0a 13 01 61   30 09 06 03 55 04 0a 13 02 62 62`,
  },
  {
    name: 'a UTF8String member (asterisk) sorts by its encoding too',
    subject: { organizations: ['a*', 'b'] },
    der: `30 17 31 15 30 08 06 03 55 04 0a 13 01 62   30 09 06 03 55 04 0a 0c 02 61 2a`,
  },
  {
    name: 'O and OU each one RDN, in Go\'s order, CN last',
    subject: { commonName: 'n', organizationalUnits: ['y', 'x'], organizations: ['o'] },
    der: `30 2e
      31 0a 30 08 06 03 55 04 0a 13 01 6f
      31 14 30 08 06 03 55 04 0b 13 01 78   30 08 06 03 55 04 0b 13 01 79
      31 0a 30 08 06 03 55 04 03 13 01 6e`,
  },
  {
    name: 'every attribute type, in pkix.Name.ToRDNSequence\'s order',
    subject: {
      commonName: 'cn', serialNumber: '7', postalCodes: ['12'], streetAddresses: ['st'], provinces: ['pr'], localities: ['lo'],
      organizationalUnits: ['ou'], organizations: ['o'], countries: ['DE'],
    },
    der: `30 73
      31 0b 30 09 06 03 55 04 06 13 02 44 45
      31 0b 30 09 06 03 55 04 08 13 02 70 72
      31 0b 30 09 06 03 55 04 07 13 02 6c 6f
      31 0b 30 09 06 03 55 04 09 13 02 73 74
      31 0b 30 09 06 03 55 04 11 13 02 31 32
      31 0a 30 08 06 03 55 04 0a 13 01 6f
      31 0b 30 09 06 03 55 04 0b 13 02 6f 75
      31 0b 30 09 06 03 55 04 03 13 02 63 6e
      31 0a 30 08 06 03 55 04 05 13 01 37`,
  },
  {
    name: 'an empty O value is kept; empty lists and an empty CN are not',
    subject: { commonName: '', organizations: [''], organizationalUnits: [] },
    der: `30 0b 31 09 30 07 06 03 55 04 0a 13 00`,
  },
  { name: 'nothing: an empty Name', subject: {}, der: `30 00` },
];

/** The subject Name TLV of a CSR: CertificationRequest { CertificationRequestInfo { version, subject, ... } }. */
function csrSubject(der: Uint8Array): Uint8Array {
  const info = readTlv(der, readTlv(der, 0).contentStart);
  const version = readTlv(der, info.contentStart);
  const name = readTlv(der, version.end);
  return der.subarray(name.start, name.end);
}

const key = generateKeyPair('ecdsa-p256');
const validity = { notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000) };

describe('subjects as Go marshals a pkix.Name', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const expected = h(c.der);
      assert.equal(hex(encodeName(c.subject)), expected, 'encodeName');
      const csrPem = createCsr({ subject: c.subject, privateKey: key.keyObject });
      assert.equal(hex(csrSubject(parseCsr(csrPem).der)), expected, 'createCsr');
      for (const build of [createCertificate, createCertificateTypescript]) {
        const cert = build({ template: { subject: c.subject, ...validity }, publicKey: key.keyObject, signer: key.keyObject });
        assert.equal(hex(parseCertificate(cert.certificatePem).rawSubject), expected, 'createCertificate');
      }
      // Upstream's signer parses the CSR's name and marshals it again: a fixpoint for Go's own output.
      const issuing = { certificatePem: createCertificate({ template: { subject: { commonName: 'ca' }, ...validity, isCA: true }, publicKey: key.keyObject, signer: key.keyObject }).certificatePem, privateKey: key.keyObject };
      const issued = issueCertificate(csrPem, issuing, { usages: ['client auth'], ...validity });
      assert.equal(hex(parseCertificate(issued.certificatePem).rawSubject), expected, 'issueCertificate re-encoding');
    });
  }
});
