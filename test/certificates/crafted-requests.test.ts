// Black box: hand-built PKCS#10 requests against a real `plat all` signing with a CA given by
// --cluster-signing-cert-file/key-file, compared with what upstream (Go's ParseCertificateRequest +
// CheckSignature in the CSR validation, then the signer's template) does with the same bytes.
import assert from 'node:assert/strict';
import { X509Certificate, createHash, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { NULL, bitString, boolean, octetString, oid, printableString, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { makeCa, writeCertKeyFiles } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { OIDS, craftCsr, extension } from '../crypto/csr-craft.js';
import { encodePem } from '../../core/crypto/index.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const raw = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.replace(/ /g, ''), 'hex'));
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const extReq = (...exts: Uint8Array[]): Uint8Array => seq(oid(OIDS.extensionRequest), setOf(seq(...exts)));
const dns = (name: string): Uint8Array => tlv(0x82, Buffer.from(name, 'latin1'));

/** An RSA CSR whose key has e = 1 and whose "signature" is the padded digest: no private key involved. */
function forgedRsaCsr(): string {
  const n = Buffer.from(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }).n!, 'base64url');
  const spki = seq(seq(oid('1.2.840.113549.1.1.1'), NULL), bitString(seq(tlv(0x02, Buffer.concat([Buffer.from([0]), n])), smallInteger(1))));
  const info = seq(smallInteger(0), seq(setOf(seq(oid(OIDS.cn), printableString('system:admin')))), spki, tlv(0xa0, new Uint8Array(0)));
  const t = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), createHash('sha256').update(info).digest()]);
  const em = Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(256 - t.length - 3, 0xff), Buffer.from([0]), t]);
  return encodePem('CERTIFICATE REQUEST', seq(info, seq(oid(OIDS.sha256WithRSA), NULL), bitString(em)));
}

/** `depth` SEQUENCEs, each holding the next, written outermost first without recursion. */
function deeplyNested(depth: number): Uint8Array {
  const header = (len: number): number[] =>
    len < 0x80 ? [0x30, len] : len < 0x100 ? [0x30, 0x81, len] : len < 0x10000 ? [0x30, 0x82, len >> 8, len & 0xff] : [0x30, 0x83, len >> 16, (len >> 8) & 0xff, len & 0xff];
  const lengths: number[] = [0];
  for (let i = 1; i < depth; i++) lengths.push(lengths[i - 1]! + header(lengths[i - 1]!).length);
  const out: number[] = [];
  for (let i = depth - 1; i >= 0; i--) out.push(...header(lengths[i]!));
  return Uint8Array.from(out);
}

describe('crafted CSRs against plat all', () => {
  let plat: RunningPlat;
  let seq_ = 0;
  before(async () => {
    const dir = tempDir('plat-crafted-');
    const [crt, key] = writeCertKeyFiles(dir, 'signing-ca', makeCa({ commonName: 'crafted-signing-ca' })).split(',');
    plat = await startInProcess({ args: ['--cluster-signing-cert-file', crt!, '--cluster-signing-key-file', key!] });
  });
  after(async () => { await plat?.stop(); });

  async function create(pem: string, usages = ['digital signature', 'client auth']) {
    const name = `crafted-${++seq_}`;
    const res = await plat.admin.post(CSRS, {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
      spec: { request: Buffer.from(pem).toString('base64'), signerName: 'platform/apiserver-client', usages },
    });
    return { name, res };
  }

  async function issued(pem: string, usages?: string[]): Promise<X509Certificate> {
    const { name, res } = await create(pem, usages);
    assert.equal(res.status, 201, res.text);
    const obj = res.json;
    obj.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'crafted' }] };
    const approved = await plat.admin.put(`${CSRS}/${name}/approval`, obj);
    assert.equal(approved.status, 200, approved.text);
    for (let i = 0; i < 100; i++) {
      const got = (await plat.admin.get(`${CSRS}/${name}`)).json;
      if (got.status?.certificate) return new X509Certificate(Buffer.from(got.status.certificate, 'base64'));
      const failed = got.status?.conditions?.find((c: any) => c.type === 'Failed');
      assert.equal(failed, undefined, JSON.stringify(failed));
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${name} was not issued`);
  }

  const refusals: { id: string; pem: () => string; message: string }[] = [
    { id: 'RSA e = 1 with a forged signature', pem: forgedRsaCsr, message: 'crypto/rsa: public exponent too small or negative' },
    { id: 'SAN entry with a high tag number',
      pem: () => craftCsr({ key: privateKey, attributes: [extReq(extension(OIDS.san, tlv(0x30, Buffer.concat([dns('a.example'), raw('9f 1f 01 61')]))))] }),
      message: 'x509: invalid subject alternative name' },
    { id: 'subject INTEGER value not minimally encoded',
      pem: () => craftCsr({ key: privateKey, subject: seq(setOf(seq(oid('2.5.4.45'), raw('02 02 00 01')))) }),
      message: 'asn1: structure error: integer not minimally-encoded' },
    { id: 'duplicate requested extensions (over two extensionRequest attributes)',
      pem: () => craftCsr({ key: privateKey, attributes: [extReq(extension(OIDS.san, seq(dns('a.example')))), extReq(extension(OIDS.san, seq(dns('b.example'))))] }),
      message: 'x509: certificate request contains duplicate requested extensions' },
    { id: 'SAN iPAddress of 5 bytes', pem: () => craftCsr({ key: privateKey, attributes: [extReq(extension(OIDS.san, seq(tlv(0x87, raw('0a 00 00 01 02')))))] }),
      message: 'x509: cannot parse IP address of length 5' },
    { id: 'trailing data after the CSR', pem: () => {
      const der = Buffer.from(craftCsr({ key: privateKey }).replace(/-----[^-]+-----|\s/g, ''), 'base64');
      return encodePem('CERTIFICATE REQUEST', Buffer.concat([der, Buffer.from([0])]));
    }, message: 'asn1: syntax error: trailing data' },
  ];
  for (const c of refusals) {
    it(`refuses ${c.id} at create: spec.request Invalid, Go's text`, async () => {
      const pem = c.pem();
      const { res } = await create(pem);
      assert.equal(res.status, 422, res.text);
      const causes = res.json.details.causes as { field: string; message: string }[];
      assert.equal(causes.length, 1, res.text);
      assert.equal(causes[0]!.field, 'spec.request');
      assert.ok(causes[0]!.message.endsWith(`: ${c.message}`), causes[0]!.message);
    });
  }

  it('an extensionRequest whose SET also holds an unreadable value requests nothing: no SAN issued (Go skips the attribute)', async () => {
    const attr = seq(oid(OIDS.extensionRequest), tlv(0x31, Buffer.concat([seq(extension(OIDS.san, seq(dns('evil.example')))), raw('04 05 00')])));
    const cert = await issued(craftCsr({ key: privateKey, attributes: [attr] }));
    assert.equal(cert.subjectAltName, undefined);
  });

  it('requested basicConstraints CA:TRUE, keyUsage certSign, a critical unknown extension and otherName: the certificate has none of them', async () => {
    const caTrue = extension('2.5.29.19', seq(boolean(true)));
    const certSign = extension('2.5.29.15', bitString(raw('06'), 1));
    const unknownCritical = seq(oid('1.2.3.4.5'), boolean(true), octetString(raw('05 00')));
    const otherName = tlv(0xa0, Buffer.concat([oid('1.3.6.1.4.1.311.20.2.3'), tlv(0xa0, tlv(0x0c, Buffer.from('admin@corp')))]));
    const san = extension(OIDS.san, seq(otherName, dns('ok.example')));
    const cert = await issued(craftCsr({ key: privateKey, attributes: [extReq(caTrue, certSign, unknownCritical, san)] }));
    assert.equal(cert.ca, false);
    assert.equal(cert.subjectAltName, 'DNS:ok.example');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const der = Buffer.from(cert.raw);
    assert.equal(der.indexOf(Buffer.from(oid('1.2.3.4.5'))), -1, 'the unknown extension is not copied');
    assert.equal(der.indexOf(Buffer.from('admin@corp')), -1, 'the otherName is not copied');
  });

  it('several CNs and O values, multi-valued RDNs: subject as Go re-marshals it (last CN wins, O values kept, sorted per RDN)', async () => {
    const atv = (o: string, v: string) => seq(oid(o), printableString(v));
    const subject = seq(setOf(atv(OIDS.cn, 'first')), setOf(atv('2.5.4.10', 'org-b'), atv('2.5.4.10', 'org-a')), setOf(atv(OIDS.cn, 'last')));
    const cert = await issued(craftCsr({ key: privateKey, subject }));
    assert.equal(cert.subject, 'O=org-a + O=org-b\nCN=last');
  });

  it('50,000 nested SEQUENCEs in an unknown attribute and a 1 MB one: created (Go reads only their outer TLV), no crash', async () => {
    const nested = deeplyNested(50_000);
    const big = seq(oid('1.2.3.4.6'), setOf(octetString(new Uint8Array(1 << 20))));
    const deep = seq(oid('1.2.3.4.7'), setOf(nested));
    const { res } = await create(craftCsr({ key: privateKey, attributes: [deep, big] }));
    assert.equal(res.status, 201, res.text.slice(0, 500));
    assert.equal((await plat.admin.get(CSRS)).status, 200);
  });
});
