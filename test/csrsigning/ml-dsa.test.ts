// Requests with ML-DSA keys through a real plat over HTTPS: POST accepts an ML-DSA-65 request
// (proof of possession checked), the signing controller issues it after approval with the
// request's SubjectPublicKeyInfo unchanged under the cluster CA's own signature, and each signer
// that applies upstream's ML-DSA usage rule fails a request that breaks it with upstream's message.
import assert from 'node:assert/strict';
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import * as asn1js from 'asn1js';
import { decodePemBlocks, parseCertificate, parseCsr } from '../../core/crypto/index.js';
import { encodeSubjectAltNames } from '../../core/crypto/general-names.js';
import { encodeName } from '../../core/crypto/names.js';
import { APISERVER_CLIENT_SIGNER, NODEAGENT_CLIENT_SIGNER, NODEAGENT_SERVING_SIGNER } from '../../plugins/csrsigning/index.js';
import { craftMlDsaCsr, extension, extensionRequest, mlDsaKeys, OIDS } from '../crypto/csr-craft.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { opensslCertText } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { CSRS, approve, certificateOf, failedCondition, issued, startSigning, waitForCsr, writeCaFiles, type RunningSigning } from './support.js';

const KE = 'validating usages for ml-dsa key: usage key encipherment cannot be used with an ML-DSA signed certificate request';
const AT_LEAST = 'usages must contain at least one of [cert sign content commitment crl sign digital signature]';

function mlDsaRequest(o: { cn: string; orgs?: string[]; dns?: string[] }): string {
  return craftMlDsaCsr({
    keys: mlDsaKeys('ML-DSA-65'),
    subject: encodeName({ commonName: o.cn, organizations: o.orgs ?? [] }),
    attributes: o.dns ? [extensionRequest(extension(OIDS.san, encodeSubjectAltNames({ dnsNames: o.dns })))] : [],
  });
}

const body = (name: string, pem: string, signerName: string, usages: string[]) => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: Buffer.from(pem).toString('base64'), signerName, usages },
});

describe('csrsigning with ML-DSA requests', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  let ca: TestCredential;

  const submit = async (name: string, pem: string, signer: string, usages: string[]) => {
    const r = await plat.admin.post(CSRS, body(name, pem, signer, usages));
    assert.equal(r.status, 201, r.text);
    await approve(plat.admin, name);
  };

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    ca = makeCa({ commonName: 'cluster-ca', days: 30 });
    const files = writeCaFiles(tempDir(), ca);
    signing = await startSigning(plat, ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile]);
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('accepts, then issues an approved ML-DSA-65 apiserver-client request with its key unchanged, signed by the cluster CA', async () => {
    const pem = mlDsaRequest({ cn: 'pq-alice', orgs: ['dev'] });
    await submit('pq-alice', pem, APISERVER_CLIENT_SIGNER, ['digital signature', 'client auth']);
    const cert = certificateOf(await waitForCsr(plat.admin, 'pq-alice', issued, 'a certificate'));

    const der = decodePemBlocks(cert)[0]!.der;
    const [tbs, , signature] = (asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value;
    const spki = new Uint8Array((tbs as asn1js.Sequence).valueBlock.value[6]!.toBER());
    assert.deepEqual(Buffer.from(spki), Buffer.from(parseCsr(pem).publicKey.spki), 'the request\'s SubjectPublicKeyInfo, byte for byte');
    // makeCa's key is ECDSA P-256: ecdsa-with-SHA256 over the TBSCertificate.
    const sig = new Uint8Array((signature as asn1js.BitString).valueBlock.valueHexView);
    assert.ok(nodeVerify('sha256', Buffer.from(tbs!.toBER()), { key: createPublicKey(ca.certificatePem), dsaEncoding: 'der' }, sig), 'the cluster CA signed it');

    const parsed = parseCertificate(cert);
    assert.equal(parsed.publicKey.parameterSet, 'ML-DSA-65');
    assert.deepEqual(parsed.keyUsage, ['digital signature']);
    const text = opensslCertText(cert);
    assert.match(text, /Public Key Algorithm: (ML-DSA-65|2\.16\.840\.1\.101\.3\.4\.3\.18)\n/);
    assert.match(text, /Subject: O ?= ?dev, CN ?= ?pq-alice/);
    assert.match(text, /Issuer: CN ?= ?cluster-ca/);
  });

  it('issues ML-DSA node client and serving requests without key encipherment', async () => {
    await submit('pq-node-client', mlDsaRequest({ cn: 'system:node:n1', orgs: ['system:nodes'] }), NODEAGENT_CLIENT_SIGNER, ['digital signature', 'client auth']);
    await submit('pq-node-serving', mlDsaRequest({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1.example'] }), NODEAGENT_SERVING_SIGNER, ['digital signature', 'server auth']);
    for (const name of ['pq-node-client', 'pq-node-serving']) {
      const cert = certificateOf(await waitForCsr(plat.admin, name, issued, 'a certificate'));
      assert.equal(parseCertificate(cert).publicKey.parameterSet, 'ML-DSA-65', name);
    }
  });

  it('fails ML-DSA requests that break the ML-DSA usage rule with upstream\'s message', async () => {
    const cases = [
      { name: 'pq-client-ke', signer: APISERVER_CLIENT_SIGNER, usages: ['digital signature', 'key encipherment', 'client auth'],
        csr: mlDsaRequest({ cn: 'bob' }), message: KE },
      { name: 'pq-client-no-signing', signer: APISERVER_CLIENT_SIGNER, usages: ['client auth'],
        csr: mlDsaRequest({ cn: 'bob' }), message: `validating usages for ml-dsa key: ${AT_LEAST}` },
      { name: 'pq-client-both', signer: APISERVER_CLIENT_SIGNER, usages: ['key encipherment', 'client auth'],
        csr: mlDsaRequest({ cn: 'bob' }), message: `${KE}\n${AT_LEAST}` },
      { name: 'pq-node-client-ke', signer: NODEAGENT_CLIENT_SIGNER, usages: ['digital signature', 'key encipherment', 'client auth'],
        csr: mlDsaRequest({ cn: 'system:node:n1', orgs: ['system:nodes'] }), message: KE },
      { name: 'pq-node-serving-ke', signer: NODEAGENT_SERVING_SIGNER, usages: ['digital signature', 'key encipherment', 'server auth'],
        csr: mlDsaRequest({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1.example'] }), message: KE },
    ];
    await Promise.all(cases.map((c) => submit(c.name, c.csr, c.signer, c.usages)));
    for (const c of cases) {
      const obj = await waitForCsr(plat.admin, c.name, (o) => failedCondition(o) !== undefined, 'a Failed condition');
      const failed = failedCondition(obj);
      assert.equal(failed.reason, 'SignerValidationFailure', c.name);
      assert.equal(failed.message, c.message, c.name);
      assert.equal(obj.status.certificate, undefined, `${c.name}: no certificate`);
    }
  });

  it('refuses an ML-DSA request whose signature does not verify at create, with Go\'s message', async () => {
    const bad = craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65'), tamper: (s) => { const t = s.slice(); t[10]! ^= 0x80; return t; } });
    const r = await plat.admin.post(CSRS, body('pq-bad', bad, APISERVER_CLIENT_SIGNER, ['digital signature', 'client auth']));
    assert.equal(r.status, 422, r.text);
    const cause = (r.json as any).details.causes[0];
    assert.equal(cause.field, 'spec.request');
    assert.match(cause.message, /^Invalid value: "[A-Za-z0-9+/=]+": x509: ML-DSA verification failure: mldsa: invalid signature$/);
  });
});
