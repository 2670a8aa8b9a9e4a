// The signing controller and the cluster CA against a real plat over HTTPS: approved requests of
// the well-known signers are issued (checked with openssl), lifetimes follow expirationSeconds and
// --cluster-signing-duration, requests that break their signer's rules end Failed, a request Go
// cannot sign is retried with upstream's error, and CSRs that are pending, denied, failed or for a
// signer nobody serves are left alone.
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateKeyPair } from '../../core/crypto/index.js';
import { oid, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import type { Plugin } from '../../core/plugin.js';
import type { SigningRequest } from '../../core/signing.js';
import { APISERVER_CLIENT_SIGNER, NODEAGENT_CLIENT_SIGNER, NODEAGENT_SERVING_SIGNER } from '../../plugins/csrsigning/index.js';
import { craftCsr, OIDS } from '../crypto/csr-craft.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { openssl, opensslCertText, opensslCsr, opensslVerify } from '../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import {
  CSRS, approve, certificateOf, createCsrObject, csrBody, deny, failedCondition, getCsr, makeCsr, startSigning, submitApproved, until,
  waitForCertificate, waitForCsr, writeCaFiles, type RunningSigning,
} from './support.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const floorSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Records which CSRs the apiserver-client signer is asked to sign (runs before the cluster CA, answers nothing). */
const asked: string[] = [];
const Recorder: Plugin = {
  name: 'SignRecorder',
  apply(host) {
    host.hooks.sign.for(APISERVER_CLIENT_SIGNER).tap({ name: 'SignRecorder', stage: -100 }, (req: SigningRequest) => {
      asked.push(req.csr.metadata.name!);
      return undefined;
    });
  },
};

describe('csrsigning with the cluster CA (generic pair, --cluster-signing-duration 24h)', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  let ca: TestCredential;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    ca = makeCa({ commonName: 'cluster-ca', days: 30 });
    const files = writeCaFiles(tempDir(), ca);
    signing = await startSigning(plat, ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile, '--cluster-signing-duration', '24h'], { plugins: [Recorder] });
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('issues an approved apiserver-client CSR with its usages, subject and key; openssl verifies it as a client certificate', async () => {
    const csr = makeCsr({ cn: 'alice', orgs: ['dev', 'ops'] });
    await submitApproved(plat.admin, 'alice', csr, APISERVER_CLIENT_SIGNER, ['digital signature', 'key encipherment', 'client auth']);
    const { pem, x509 } = await waitForCertificate(plat.admin, 'alice');

    assert.equal(pem.match(/-----BEGIN CERTIFICATE-----/g)?.length, 1, 'one CERTIFICATE block, no chain');
    const verified = opensslVerify(ca.certificatePem, pem, { purpose: 'sslclient' });
    assert.equal(verified.status, 0, verified.stderr + verified.stdout);
    const text = opensslCertText(pem);
    // Go marshals the parsed name again: both organizations in one RDN (test/crypto/issue-subject.test.ts).
    assert.match(text, /Subject: O ?= ?dev \+ O ?= ?ops, CN ?= ?alice/);
    assert.match(text, /Issuer: CN ?= ?cluster-ca/);
    assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment\n/);
    assert.match(text, /X509v3 Extended Key Usage: \s*TLS Web Client Authentication\n/);
    assert.match(text, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
    assert.ok(x509.publicKey.equals(createPublicKey(csr.key)), 'the CSR\'s public key');
    assert.ok(x509.checkIssued(new X509Certificate(ca.certificatePem)));
  });

  it('sets the lifetime from expirationSeconds, capped by --cluster-signing-duration; backdates 5 minutes', async () => {
    const cases = [
      { name: 'ttl-600', expirationSeconds: 600, lifetime: 10 * MIN + 5 * MIN }, // short: notAfter = now + 10m
      { name: 'ttl-3600', expirationSeconds: 3600, lifetime: HOUR + 5 * MIN },
      { name: 'ttl-8h', expirationSeconds: 8 * 3600, lifetime: 8 * HOUR }, // long: notAfter = now + ttl - 5m
      { name: 'ttl-48h', expirationSeconds: 48 * 3600, lifetime: 24 * HOUR }, // above the maximum: 24h
      { name: 'ttl-default', expirationSeconds: undefined, lifetime: 24 * HOUR },
    ];
    const started = await Promise.all(cases.map((c) =>
      submitApproved(plat.admin, c.name, makeCsr({ cn: c.name }), APISERVER_CLIENT_SIGNER, ['client auth'], c.expirationSeconds)));
    for (const [i, c] of cases.entries()) {
      const { x509 } = await waitForCertificate(plat.admin, c.name);
      const seen = Date.now();
      const nb = Date.parse(x509.validFrom);
      const na = Date.parse(x509.validTo);
      assert.equal(na - nb, c.lifetime, `${c.name}: lifetime`);
      // notBefore = (the second the controller signed in) - 5m, between approval and now.
      assert.ok(nb >= floorSecond(started[i]!) - 5 * MIN && nb <= seen - 5 * MIN, `${c.name}: notBefore ${x509.validFrom}`);
    }
  });

  it('copies the SANs into a node serving certificate that follows the serving rules', async () => {
    const csr = makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1.example.com'], ips: ['10.0.0.1'] });
    await submitApproved(plat.admin, 'serving-ok', csr, NODEAGENT_SERVING_SIGNER, ['digital signature', 'server auth']);
    const { pem } = await waitForCertificate(plat.admin, 'serving-ok');
    assert.equal(opensslVerify(ca.certificatePem, pem, { purpose: 'sslserver' }).status, 0);
    const text = opensslCertText(pem);
    assert.match(text, /DNS:n1\.example\.com, IP Address:10\.0\.0\.1/);
    assert.match(text, /TLS Web Server Authentication/);
  });

  it('drops GeneralNames other than DNS, email, IP and URI: a node client CSR with a UPN otherName is issued without it', async () => {
    // The node client rules (like upstream's) look only at DNS, email, IP and URI names, so this
    // request passes them; Go's certificate would carry no SAN at all, and neither may ours.
    const { csrPem, keyPem } = opensslCsr({
      subject: '/O=system:nodes/CN=system:node:n1',
      sans: ['otherName:1.3.6.1.4.1.311.20.2.3;UTF8:admin@corp', 'RID:1.2.3.4', 'dirName:dir_sect'],
      configSections: '[dir_sect]\nO=system:masters\nCN=admin\n',
    });
    await submitApproved(plat.admin, 'node-client-upn', { pem: csrPem, key: createPrivateKey(keyPem) }, NODEAGENT_CLIENT_SIGNER,
      ['digital signature', 'key encipherment', 'client auth']);
    const { pem, x509 } = await waitForCertificate(plat.admin, 'node-client-upn');
    assert.equal(x509.subjectAltName, undefined);
    assert.equal(opensslVerify(ca.certificatePem, pem, { purpose: 'sslclient' }).status, 0);
    const ids = openssl(['x509', '-noout', '-ext', 'subjectAltName,subjectKeyIdentifier,authorityKeyIdentifier'], { input: pem });
    assert.doesNotMatch(ids, /Subject Alternative Name|Subject Key Identifier/, 'no SAN, no SKI on a leaf');
    const caSki = /Subject Key Identifier: *\n\s*([0-9A-F:]+)\n/.exec(opensslCertText(ca.certificatePem))![1]!;
    assert.match(ids, new RegExp(`Authority Key Identifier: *\\n\\s*(keyid:)?${caSki}\\n`));
  });

  it('fails requests that break their signer\'s rules with SignerValidationFailure and the rule\'s message', async () => {
    const cases = [
      { name: 'serving-email', signer: NODEAGENT_SERVING_SIGNER, usages: ['digital signature', 'server auth'],
        csr: makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1'], emails: ['n1@example.com'] }), message: 'Email subjectAltNames are not allowed' },
      { name: 'serving-no-san', signer: NODEAGENT_SERVING_SIGNER, usages: ['digital signature', 'server auth'],
        csr: makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'] }), message: 'DNS or IP subjectAltName is required' },
      { name: 'node-client-dns', signer: NODEAGENT_CLIENT_SIGNER, usages: ['digital signature', 'client auth'],
        csr: makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'], dns: ['n1'] }), message: 'DNS subjectAltNames are not allowed' },
      { name: 'node-client-usages', signer: NODEAGENT_CLIENT_SIGNER, usages: ['client auth'],
        csr: makeCsr({ cn: 'system:node:n1', orgs: ['system:nodes'] }), message: 'usages did not match [client auth digital signature key encipherment]' },
      { name: 'client-server-auth', signer: APISERVER_CLIENT_SIGNER, usages: ['client auth', 'server auth'],
        csr: makeCsr({ cn: 'bob' }), message: 'invalid usage for client certificate: server auth' },
      { name: 'client-no-client-auth', signer: APISERVER_CLIENT_SIGNER, usages: ['digital signature'],
        csr: makeCsr({ cn: 'bob' }), message: 'missing required usage for client certificate: client auth' },
    ];
    await Promise.all(cases.map((c) => submitApproved(plat.admin, c.name, c.csr, c.signer, c.usages)));
    for (const c of cases) {
      const obj = await waitForCsr(plat.admin, c.name, (o) => failedCondition(o) !== undefined, 'a Failed condition');
      const failed = failedCondition(obj);
      assert.equal(failed.status, 'True', c.name);
      assert.equal(failed.reason, 'SignerValidationFailure', c.name);
      assert.equal(failed.message, c.message, c.name);
      assert.match(failed.lastUpdateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(obj.status.certificate, undefined, `${c.name}: no certificate`);
      assert.deepEqual(obj.status.conditions.map((x: any) => x.type), ['Approved', 'Failed'], c.name);
    }
  });

  it('a T61String CN that is not UTF-8 passes validation, then fails the signing with Go\'s asn1 text, retried, never Failed', async () => {
    // Go parses T61String bytes as they are; CreateCertificate's asn1.Marshal of the subject then refuses them.
    const key = generateKeyPair('ecdsa-p256').keyObject;
    const subject = seq(setOf(seq(oid(OIDS.cn), tlv(0x14, Buffer.from('al\xe9ce', 'latin1')))));
    await submitApproved(plat.admin, 't61-cn', { pem: craftCsr({ key, subject }), key }, APISERVER_CLIENT_SIGNER, ['digital signature', 'client auth']);
    const error = 'error auto signing csr: failed to sign certificate: asn1: string not valid UTF-8';
    await until(() => signing.logs.lines.filter((l) => l.includes(`Sync t61-cn failed with : ${error}`)).length >= 2, 'two failed attempts');
    const obj = await getCsr(plat.admin, 't61-cn');
    assert.equal(obj.status.certificate, undefined);
    assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('leaves pending, denied, failed and unknown-signer CSRs alone', async () => {
    const usages = ['client auth'];
    await createCsrObject(plat.admin, csrBody('alone-pending', makeCsr({ cn: 'p' }), APISERVER_CLIENT_SIGNER, usages));
    await createCsrObject(plat.admin, csrBody('alone-denied', makeCsr({ cn: 'd' }), APISERVER_CLIENT_SIGNER, usages));
    await deny(plat.admin, 'alone-denied');
    // Failed first, then approved: approved and failed, which the controller must skip.
    await createCsrObject(plat.admin, csrBody('alone-failed', makeCsr({ cn: 'f' }), APISERVER_CLIENT_SIGNER, usages));
    const f = await getCsr(plat.admin, 'alone-failed');
    f.status = { conditions: [{ type: 'Failed', status: 'True', reason: 'ByHand', message: 'failed by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/alone-failed/status`, f)).status, 200);
    await approve(plat.admin, 'alone-failed');
    await submitApproved(plat.admin, 'alone-unknown', makeCsr({ cn: 'u' }), 'example.com/nobody-signs-this', usages);
    // The sentinel comes last; once it is issued, the events of the others have been handled.
    await submitApproved(plat.admin, 'alone-sentinel', makeCsr({ cn: 's' }), APISERVER_CLIENT_SIGNER, usages);
    await waitForCertificate(plat.admin, 'alone-sentinel');

    assert.ok(asked.includes('alone-sentinel'));
    for (const name of ['alone-pending', 'alone-denied', 'alone-failed', 'alone-unknown']) {
      assert.ok(!asked.includes(name), `${name} was handed to a signer`);
      const obj = await getCsr(plat.admin, name);
      assert.equal(obj.status?.certificate, undefined, `${name}: no certificate`);
    }
    assert.deepEqual((await getCsr(plat.admin, 'alone-pending')).status?.conditions ?? [], []);
    assert.deepEqual((await getCsr(plat.admin, 'alone-denied')).status.conditions.map((c: any) => c.type), ['Denied']);
    assert.deepEqual((await getCsr(plat.admin, 'alone-failed')).status.conditions.map((c: any) => c.type).sort(), ['Approved', 'Failed']);
    assert.deepEqual((await getCsr(plat.admin, 'alone-unknown')).status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('issues each CSR once: its certificate is not replaced when the CSR is updated again', async () => {
    await submitApproved(plat.admin, 'once', makeCsr({ cn: 'once' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    const first = await waitForCertificate(plat.admin, 'once');
    // A label change makes an update event for a CSR that already has its certificate.
    const r = await plat.admin.patch(`${CSRS}/once`, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json');
    assert.equal(r.status, 200, r.text);
    await submitApproved(plat.admin, 'once-sentinel', makeCsr({ cn: 'once-sentinel' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    await waitForCertificate(plat.admin, 'once-sentinel');
    assert.equal(certificateOf(await getCsr(plat.admin, 'once')), first.pem);
    assert.equal(asked.filter((n) => n === 'once').length, 1);
  });
});
