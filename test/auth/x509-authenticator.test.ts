import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { createX509Authenticator } from '../../plugins/authn-x509/index.js';
import { CREDENTIAL_ID_KEY, loadCaBundle } from '../../core/authn/x509/index.js';
import { createPki, daysAfterIssue, type Issued, type Pki } from './pki.js';
import { boot, request } from './support.js';

let pki: Pki;
before(() => { pki = createPki(); });
after(() => pki.cleanup());

const rfc3339 = (s: string) => new Date(s).toISOString().replace(/\.\d{3}Z$/, 'Z');
const fingerprint = (c: Issued) => c.x509.fingerprint256.replace(/:/g, '').toLowerCase();

/** A host with only the root trusted (intermediates must be presented), clock `days` after alice's issue. */
function rootOnlyHost(days = 10, extra: Parameters<typeof boot>[0] = []) {
  const path = join(pki.dir, 'root-only.pem');
  writeFileSync(path, pki.root.pem);
  return boot([createX509Authenticator({ now: () => daysAfterIssue(pki.alice, days) }), ...extra], [`--client-ca-file=${path}`]);
}

/** Upstream's x509 Authenticator names the leaf it failed to verify; the reasons below are what follows. */
const NAMED = /^verifying certificate SN=\d+, SKID=(?:[0-9A-F]{2}(?::[0-9A-F]{2})*)?, AKID=(?:[0-9A-F]{2}(?::[0-9A-F]{2})*)? failed: /;

async function authenticate(chain: readonly Issued[] | readonly Buffer[], days = 10) {
  const { host } = rootOnlyHost(days);
  const req = request({ peerChain: chain.map((c) => (Buffer.isBuffer(c) ? c : c.der)) });
  const user = await host.hooks.authenticate.promise(req);
  return { user, reasons: req.reasons.map((r) => r.replace(NAMED, '')), raw: req.reasons };
}

/** What openssl prints for the key identifiers: upper-case hex pairs joined by colons, as Go's columnSeparatedHex. */
function opensslKeyIds(c: Issued): { skid: string; akid: string } {
  const text = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectKeyIdentifier,authorityKeyIdentifier'], { input: c.pem, encoding: 'utf8' });
  const after = (label: string) => new RegExp(`${label}:\\s*\\n\\s*(?:keyid:)?([0-9A-F:]+)`).exec(text)?.[1] ?? '';
  return { skid: after('X509v3 Subject Key Identifier'), akid: after('X509v3 Authority Key Identifier') };
}

describe('X509Authenticator', () => {
  it('declares --client-ca-file and taps nothing when it is not set', () => {
    const { host, flags } = boot([createX509Authenticator()]);
    const spec = flags.specs().find((s) => s.name === 'client-ca-file');
    assert.equal(spec?.type, 'string');
    assert.equal(spec?.section, 'Authentication options');
    assert.equal(host.hooks.authenticate.taps.length, 0);
  });

  it('authenticates a certificate signed by the root as CN, with O values as groups and a credential id', async () => {
    const { user, reasons } = await authenticate([pki.alice]);
    assert.deepEqual(reasons, []);
    assert.deepEqual(user, {
      name: 'alice',
      groups: ['dev', 'ops'],
      extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${fingerprint(pki.alice)}`] },
    });
    assert.equal(CREDENTIAL_ID_KEY, 'authentication.platform/credential-id');
  });

  it('builds the chain through a presented intermediate', async () => {
    const { user, reasons } = await authenticate([pki.bob, pki.intermediate]);
    assert.deepEqual(reasons, []);
    assert.equal(user?.name, 'bob');
    assert.deepEqual(user?.groups, ['team']);
  });

  it('uses intermediates from the bundle itself', async () => {
    const { host } = boot([createX509Authenticator({ now: () => daysAfterIssue(pki.alice, 10) })], [`--client-ca-file=${pki.bundlePath}`]);
    const user = await host.hooks.authenticate.promise(request({ peerChain: [pki.bob.der] }));
    assert.equal(user?.name, 'bob');
  });

  it('rejects a missing intermediate as unknown authority', async () => {
    const { user, reasons } = await authenticate([pki.bob]);
    assert.equal(user, undefined);
    assert.deepEqual(reasons, ['x509: certificate signed by unknown authority']);
  });

  it('names the refused certificate by serial and key identifiers, as upstream wraps the verification error', async () => {
    const { raw } = await authenticate([pki.bob]);
    const { skid, akid } = opensslKeyIds(pki.bob);
    assert.ok(skid && akid, 'openssl printed both identifiers');
    const serial = BigInt(`0x${pki.bob.x509.serialNumber}`);
    assert.deepEqual(raw, [`verifying certificate SN=${serial}, SKID=${skid}, AKID=${akid} failed: x509: certificate signed by unknown authority`]);
  });

  it('rejects a certificate from a foreign CA, and anonymous does not take over', async () => {
    const { host } = rootOnlyHost(10, [AnonymousAuthenticator]);
    const req = request({ peerChain: [pki.foreign.der] });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.deepEqual(req.reasons.map((r) => r.replace(NAMED, '')), ['x509: certificate signed by unknown authority']);
    assert.equal(req.rejected, true);
  });

  it('rejects an expired certificate with Go\'s message (injected clock)', async () => {
    const { user, reasons } = await authenticate([pki.shortLived], 30);
    assert.equal(user, undefined);
    const now = rfc3339(daysAfterIssue(pki.alice, 30).toISOString());
    assert.deepEqual(reasons, [`x509: certificate has expired or is not yet valid: current time ${now} is after ${rfc3339(pki.shortLived.x509.validTo)}`]);
  });

  it('rejects a certificate that is not valid yet', async () => {
    const { reasons } = await authenticate([pki.alice], -1);
    assert.match(reasons[0] ?? '', /^x509: certificate has expired or is not yet valid: current time \S+Z is before \S+Z$/);
  });

  it('rejects an expired intermediate', async () => {
    const { reasons } = await authenticate([pki.underShortIntermediate, pki.shortIntermediate], 30);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, new RegExp(`is after ${rfc3339(pki.shortIntermediate.x509.validTo)}$`));
  });

  it('requires clientAuth when the leaf restricts its extended key usages', async () => {
    const { user, reasons } = await authenticate([pki.serverOnly]);
    assert.equal(user, undefined);
    assert.deepEqual(reasons, ['x509: certificate specifies an incompatible key usage']);
  });

  it('accepts a leaf without an extended key usage extension', async () => {
    const { user } = await authenticate([pki.noEku]);
    assert.equal(user?.name, 'no-eku');
  });

  it('applies extended key usages of intermediates down the chain', async () => {
    const { reasons } = await authenticate([pki.underServerIntermediate, pki.serverIntermediate]);
    assert.deepEqual(reasons, ['x509: certificate specifies an incompatible key usage']);
  });

  it('refuses a CA:FALSE certificate as issuer', async () => {
    const { user, reasons } = await authenticate([pki.underNotCa, pki.notCa]);
    assert.equal(user, undefined);
    assert.deepEqual(reasons, ['x509: certificate signed by unknown authority (possibly because of "x509: invalid signature: parent certificate cannot sign this kind of certificate" while trying to verify candidate authority certificate "not-a-ca")']);
  });

  it('enforces path length constraints', async () => {
    const { reasons } = await authenticate([pki.deepLeaf, pki.deepIntermediate, pki.intermediate]);
    assert.deepEqual(reasons, ['x509: too many intermediates for path length constraint']);
  });

  it('refuses unknown critical extensions', async () => {
    const { reasons } = await authenticate([pki.unknownCritical]);
    assert.deepEqual(reasons, ['x509: unhandled critical extension']);
  });

  it('refuses SHA-1 signatures', async () => {
    const { reasons } = await authenticate([pki.sha1]);
    assert.match(reasons[0] ?? '', /insecure algorithm ECDSA-SHA1/);
  });

  it('refuses a certificate whose signature was tampered with', async () => {
    const der = Buffer.from(pki.alice.der);
    der[der.length - 1] = der[der.length - 1]! ^ 0x01;
    const { user, reasons } = await authenticate([der]);
    assert.equal(user, undefined);
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, /^x509: certificate signed by unknown authority/);
  });

  it('rejects bytes that are not a certificate', async () => {
    const { reasons } = await authenticate([Buffer.from('not a certificate')]);
    assert.match(reasons[0] ?? '', /^x509: malformed certificate/);
  });

  it('trusts a certificate that is itself in the bundle', async () => {
    const path = join(pki.dir, 'self-bundle.pem');
    writeFileSync(path, pki.selfSigned.pem);
    const { host } = boot([createX509Authenticator({ now: () => daysAfterIssue(pki.alice, 10) })], [`--client-ca-file=${path}`]);
    const user = await host.hooks.authenticate.promise(request({ peerChain: [pki.selfSigned.der] }));
    assert.equal(user?.name, 'self');
    assert.deepEqual(user?.groups, ['solo']);
  });

  it('ignores a valid certificate without CommonName (upstream: not ok, no error), so anonymous applies', async () => {
    const alone = await authenticate([pki.noCn]);
    assert.equal(alone.user, undefined);
    assert.deepEqual(alone.reasons, []);
    const { host } = rootOnlyHost(10, [AnonymousAuthenticator]);
    const user = await host.hooks.authenticate.promise(request({ peerChain: [pki.noCn.der] }));
    assert.equal(user?.name, 'system:anonymous');
  });

  it('leaves requests without a client certificate to others', async () => {
    const { user, reasons } = await authenticate([]);
    assert.equal(user, undefined);
    assert.deepEqual(reasons, []);
  });

  it('never trusts the CA bundle of a different host configuration', async () => {
    // Two hosts, two bundles: the plugin object keeps no state between applications.
    const plugin = createX509Authenticator({ now: () => daysAfterIssue(pki.alice, 10) });
    const foreignPath = join(pki.dir, 'foreign-bundle.pem');
    writeFileSync(foreignPath, pki.foreignRoot.pem);
    const a = boot([plugin], [`--client-ca-file=${foreignPath}`]);
    const b = boot([plugin], [`--client-ca-file=${pki.bundlePath}`]);
    assert.equal((await a.host.hooks.authenticate.promise(request({ peerChain: [pki.foreign.der] })))?.name, 'mallory');
    const req = request({ peerChain: [pki.foreign.der] });
    assert.equal(await b.host.hooks.authenticate.promise(req), undefined);
    assert.equal(req.rejected, true);
  });
});

describe('loadCaBundle', () => {
  it('returns every CERTIFICATE block and skips other blocks', () => {
    const certs = loadCaBundle(pki.bundlePath);
    assert.deepEqual(certs.map((c) => c.subject), ['CN=test-root', 'CN=test-intermediate']);
  });

  it('fails start-up with the file name when the file is missing', () => {
    const path = join(pki.dir, 'absent.pem');
    assert.throws(() => loadCaBundle(path), (e: unknown) => e instanceof StartupError && e.message.includes(path));
    assert.throws(() => boot([createX509Authenticator()], [`--client-ca-file=${path}`]), StartupError);
  });

  it('fails start-up when the file holds no certificate', () => {
    const path = join(pki.dir, 'key-only.pem');
    writeFileSync(path, pki.root.keyPem);
    assert.throws(() => loadCaBundle(path), (e: unknown) =>
      e instanceof StartupError && e.message.includes(path) && e.message.includes('does not contain any valid'));
  });

  it('fails start-up on a corrupt certificate block, naming file and block', () => {
    const path = join(pki.dir, 'corrupt.pem');
    writeFileSync(path, pki.root.pem + '-----BEGIN CERTIFICATE-----\nMIIBAAAA\n-----END CERTIFICATE-----\n');
    assert.throws(() => loadCaBundle(path), (e: unknown) =>
      e instanceof StartupError && e.message.includes(path) && e.message.includes('certificate 2') && e.message.includes('malformed'));
    const badBase64 = join(pki.dir, 'bad-base64.pem');
    writeFileSync(badBase64, '-----BEGIN CERTIFICATE-----\nMII*BAAAA\n-----END CERTIFICATE-----\n');
    assert.throws(() => loadCaBundle(badBase64), /invalid base64/);
  });
});
