// Third-party signers that misbehave: what a tap of hooks.sign answers is checked before it is
// written. A certificate for another public key than the CSR's, or one the PEM rules refuse, is
// an error retried with backoff (logged with the reason), never status.certificate; a good signer
// next to them is not held up. Several plugins may tap one signer: an error names the one that
// threw or answered, start-up lists them in the order they are asked, and a tap the cluster CA
// hides, or one for a signerName no CSR can carry, is warned about.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../core/crypto/index.js';
import type { Plugin } from '../../core/plugin.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { bootSigning, getCsr, makeCsr, startSigning, submitApproved, until, waitForCertificate, writeCaFiles, type RunningSigning } from './support.js';

const PLUGIN_NAME = 'MisbehavingSigners';

function misbehavingSigners(ca: TestCredential, other: TestCredential): Plugin {
  const issue = (requestPem: string, usages: readonly string[]) => issueCertificate(requestPem, { certificatePem: ca.certificatePem, privateKey: ca.privateKeyPem },
    { usages, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000) }).certificatePem;
  return {
    name: PLUGIN_NAME,
    apply(host) {
      // A certificate, from the right CA, but for a key that is not the CSR's.
      host.hooks.sign.for('example.com/wrong-key').tapPromise(PLUGIN_NAME, async () => ({ certificatePem: other.certificatePem }));
      host.hooks.sign.for('example.com/garbage').tapPromise(PLUGIN_NAME, async () => ({ certificatePem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }));
      host.hooks.sign.for('example.com/good').tapPromise(PLUGIN_NAME, async (req) => ({ certificatePem: issue(req.requestPem, req.usages) }));
      // Rejects with something that is not an Error (a plugin's own error shape).
      host.hooks.sign.for('example.com/odd-rejection').tapPromise(PLUGIN_NAME, () => Promise.reject({ code: 7, why: 'hsm offline' }));
      // A final failure with nothing to say why.
      host.hooks.sign.for('example.com/no-reason').tapPromise(PLUGIN_NAME, async () => ({ failed: { reason: '', message: '' } }));
      // Throws, after another plugin passed the CSR on: the log names the one that threw.
      host.hooks.sign.for('example.com/throws').tap('PassingSigner', () => undefined);
      host.hooks.sign.for('example.com/throws').tapPromise('ThrowingSigner', async () => { throw new Error('boom'); });
      // A signerName no CSR can carry (upper case): the API server refuses every CSR naming it.
      host.hooks.sign.for('Example.com/Unreachable').tapPromise(PLUGIN_NAME, async () => undefined);
      // Neither a certificate nor a refusal, from the second of two taps of one signerName.
      host.hooks.sign.for('example.com/shapeless').tap('PassingSigner', () => undefined);
      host.hooks.sign.for('example.com/shapeless').tapPromise('ShapelessSigner', async () => ({ certificate: 'typo of certificatePem' }) as never);
      // An async function tapped with tap (not tapPromise) that passes: the CSR goes on to the next tap.
      host.hooks.sign.for('example.com/async-pass').tap('AsyncPassingSigner', (async () => { await new Promise((r) => setImmediate(r)); return undefined; }) as never);
      host.hooks.sign.for('example.com/async-pass').tapPromise('SignerAfterIt', async (req) => ({ certificatePem: issue(req.requestPem, req.usages) }));
    },
  };
}

describe('csrsigning with misbehaving signer plugins', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  let ca: TestCredential;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    ca = makeCa({ commonName: 'plugin-ca' });
    const other = makeCa({ commonName: 'someone-else' });
    signing = await startSigning(plat, [], { plugins: [misbehavingSigners(ca, other)] });
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('never writes a certificate for another public key than the CSR\'s, and retries', async () => {
    await submitApproved(plat.admin, 'wrong-key', makeCsr({ cn: 'wrong-key' }), 'example.com/wrong-key', ['client auth']);
    await until(() => signing.logs.lines.filter((l) => l.includes('Sync wrong-key failed with : ')
      && l.includes("failed with : error auto signing csr: the signer's certificate is not for the CSR's public key")).length >= 3, 'three failed attempts');
    const obj = await getCsr(plat.admin, 'wrong-key');
    assert.equal(obj.status.certificate, undefined);
    assert.deepEqual(obj.status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('says what is wrong with a certificate the PEM rules refuse, before writing it', async () => {
    await submitApproved(plat.admin, 'garbage', makeCsr({ cn: 'garbage' }), 'example.com/garbage', ['client auth']);
    await until(() => signing.logs.has("error auto signing csr: the signer's certificate is invalid: x509: malformed certificate"), 'the refusal');
    assert.equal((await getCsr(plat.admin, 'garbage')).status.certificate, undefined);
  });

  it('logs what a signer rejected with, even when it is not an Error', async () => {
    await submitApproved(plat.admin, 'odd-rejection', makeCsr({ cn: 'odd' }), 'example.com/odd-rejection', ['client auth']);
    await until(() => signing.logs.has('error auto signing csr: {\\"code\\":7,\\"why\\":\\"hsm offline\\"} (thrown by plugin \\"MisbehavingSigners\\")'), 'the rejection, as JSON');
    assert.ok(!signing.logs.has('[object Object]'));
  });

  it('does not write a Failed condition without a reason: an error, retried', async () => {
    await submitApproved(plat.admin, 'no-reason', makeCsr({ cn: 'no-reason' }), 'example.com/no-reason', ['client auth']);
    await until(() => signing.logs.has('error auto signing csr: the signer answered failed with an empty reason'), 'the refusal');
    assert.deepEqual((await getCsr(plat.admin, 'no-reason')).status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('names the plugin that answered garbage, and what it answered', async () => {
    await submitApproved(plat.admin, 'shapeless', makeCsr({ cn: 'shapeless' }), 'example.com/shapeless', ['client auth']);
    await until(() => signing.logs.has('error auto signing csr: the signer answered neither a certificatePem nor a failed reason and message: an object with keys certificate (answered by plugin \\"MisbehavingSigners\\", tap \\"ShapelessSigner\\")'), 'the refusal');
    assert.ok(signing.logs.has('error auto signing csr: the signer answered failed with an empty reason (answered by plugin \\"MisbehavingSigners\\")'));
    assert.deepEqual((await getCsr(plat.admin, 'shapeless')).status.conditions.map((c: any) => c.type), ['Approved']);
  });

  it('names the plugin that threw, and its tap when the tap has a name of its own', async () => {
    await submitApproved(plat.admin, 'throws', makeCsr({ cn: 'throws' }), 'example.com/throws', ['client auth']);
    await until(() => signing.logs.has('error auto signing csr: boom (thrown by plugin \\"MisbehavingSigners\\", tap \\"ThrowingSigner\\")'), 'the error');
  });

  it('warns at start-up of a tap no CSR can reach: its signerName is one the API server refuses', () => {
    assert.ok(signing.logs.has('"Example.com/Unreachable" is not a signerName a CSR can carry, so no CSR reaches its taps (the API server refuses it: spec.signerName: Invalid value: "Example.com": validating label "Example": a lowercase RFC 1123 label'), signing.logs.lines.filter((l) => l.includes('Unreachable')).join('\n'));
  });

  it('says at start-up which plugins tap each signer, and in which order they are asked', () => {
    // The plugin (the name the config file's start-up line gives), and the taps' own names in order.
    assert.ok(signing.logs.has('Starting certificate controller name=\"csrsigning-example.com-throws\" signer=\"example.com/throws\" plugins=[\"MisbehavingSigners\",\"MisbehavingSigners\"] taps=[\"PassingSigner\",\"ThrowingSigner\"]'), signing.logs.lines.join('\n'));
    assert.ok(signing.logs.has('several plugins tap this signer: each CSR is handed to them in this order until one answers (anything but undefined), so a plugin sees only the CSRs those before it pass on signer=\"example.com/throws\" plugins=[\"MisbehavingSigners\",\"MisbehavingSigners\"] taps=[\"PassingSigner\",\"ThrowingSigner\"]'));
    assert.ok(signing.logs.has('signer=\"example.com/good\" plugins=[\"MisbehavingSigners\"]'));
  });

  it('waits for an async function tapped with tap: when it passes, the next tap signs (its Promise was taken as the answer)', async () => {
    await submitApproved(plat.admin, 'async-pass', makeCsr({ cn: 'async-pass' }), 'example.com/async-pass', ['client auth']);
    const { x509 } = await waitForCertificate(plat.admin, 'async-pass');
    assert.ok(x509.checkIssued(new X509Certificate(ca.certificatePem)));
  });

  it('issues through a signer that answers well', async () => {
    const csr = makeCsr({ cn: 'good' });
    await submitApproved(plat.admin, 'good', csr, 'example.com/good', ['client auth']);
    const { x509 } = await waitForCertificate(plat.admin, 'good');
    assert.ok(x509.checkIssued(new X509Certificate(ca.certificatePem)));
  });
});

describe('a plugin that taps a well-known signer after the cluster CA', () => {
  it('is warned about at start-up: the cluster CA answers every CSR, so it is never called', async () => {
    const files = writeCaFiles(tempDir(), makeCa({ commonName: 'cluster-ca' }));
    const late: Plugin = {
      name: 'LateSigner',
      apply(host) {
        host.hooks.configure.tap('LateSigner', () => {
          host.hooks.sign.for('platform/legacy-unknown').tapPromise('LateSigner', async () => undefined);
          // A tap of a name of its own is named with its plugin, the name the config file knows.
          host.hooks.sign.for('platform/nodeagent-serving').tapPromise('late-hsm', async () => undefined);
        });
      },
    };
    const { host, logs } = await bootSigning(['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile], { plugins: [late] });
    await host.hooks.shutdown.promise();
    const warning = logs.lines.filter((l) => l.startsWith('W') && l.includes('plugin "LateSigner" taps hooks.sign.for("platform/legacy-unknown") after the cluster CA, which answers every CSR of that signer: it is never called (tap in apply, or with { name, stage: -1 }, to come first)'));
    assert.equal(warning.length, 1, logs.lines.join('\n'));
    assert.ok(logs.has('plugin "LateSigner" (tap "late-hsm") taps hooks.sign.for("platform/nodeagent-serving") after the cluster CA'), logs.lines.join('\n'));
    assert.ok(!logs.has('taps hooks.sign.for("platform/apiserver-client") after'), 'only the signer it taps');
  });
});
