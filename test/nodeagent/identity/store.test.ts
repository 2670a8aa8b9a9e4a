// The certificate store's file rules (k8s-behaviour §5.3) and the manager's schedule (§5.7), on
// their own: dated files and the -current link, recovery of an interrupted swap, load order, a
// corrupt current file, the rotation deadline's range and the template checks.
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { rotationDeadline, templateMismatch } from '../../../core/client/certificate/manager.js';
import { usagesFor } from '../../../core/client/certificate/request.js';
import { datedStamp, FileStore, keyToPem, NoCertKeyError } from '../../../core/client/certificate/store.js';
import { createCertificate } from '../../../core/crypto/index.js';
import { createLogger } from '../../../core/log.js';
import { tempDir } from '../../helpers/plat.js';
import { writeNodeKubeconfig } from '../../../plugins/nodeagent-identity/kubeconfig-files.js';
import { servingTemplate } from '../../../plugins/nodeagent-identity/serving-template.js';

function selfSigned(cn: string, o: { orgs?: string[]; dns?: string[]; ips?: string[] } = {}) {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const now = Date.now();
  const { certificatePem } = createCertificate({
    template: {
      subject: { commonName: cn, organizations: o.orgs ?? ['system:nodes'] }, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3_600_000),
      dnsNames: o.dns ?? [], ipAddresses: o.ips ?? [],
    },
    publicKey: key, signer: key,
  });
  return { cert: certificatePem, key: keyToPem(key) };
}

describe('certificate file store', () => {
  it('creates its directory and the kubeconfig\'s private (0700), files 0600', async () => {
    const root = tempDir('plat-store-');
    const dir = path.join(root, 'pki');
    const a = selfSigned('system:node:a');
    new FileStore({ dir, prefix: 'nodeagent-client' }).update(a.cert, a.key);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const kubeconfig = path.join(root, 'conf', 'nodeagent.conf');
    await writeNodeKubeconfig(kubeconfig, { server: 'https://127.0.0.1:6443', insecure: true }, path.join(dir, 'nodeagent-client-current.pem'));
    assert.equal(statSync(path.dirname(kubeconfig)).mode & 0o777, 0o700);
    assert.equal(statSync(kubeconfig).mode & 0o777, 0o600);
  });

  it('writes a dated 0600 file and an absolute -current link; a second update swaps the link', () => {
    const dir = tempDir('plat-store-');
    const store = new FileStore({ dir, prefix: 'nodeagent-client' });
    assert.throws(() => store.current(), NoCertKeyError);
    const a = selfSigned('system:node:a');
    store.update(a.cert, a.key, new Date(2026, 0, 2, 3, 4, 5));
    const link = path.join(dir, 'nodeagent-client-current.pem');
    assert.equal(readlinkSync(link), path.resolve(dir, 'nodeagent-client-2026-01-02-03-04-05.pem'));
    assert.equal(lstatSync(readlinkSync(link)).mode & 0o777, 0o600);
    const b = selfSigned('system:node:a');
    store.update(b.cert, b.key, new Date(2026, 0, 2, 3, 4, 6));
    assert.match(readlinkSync(link), /03-04-06\.pem$/);
    assert.equal(store.current().leaf.serialNumber, new X509Certificate(b.cert).serialNumber);
  });

  it('replaces whatever is at the dated name, never writing the key through a symlink or into a readable file', () => {
    const root = tempDir('plat-store-');
    const dir = path.join(root, 'pki');
    mkdirSync(dir, { mode: 0o700 });
    const when = new Date(2026, 0, 2, 3, 4, 5);
    const dated = path.join(dir, `nodeagent-client-${datedStamp(when)}.pem`);
    const victim = path.join(root, 'victim.txt');
    writeFileSync(victim, 'not yours\n', { mode: 0o644 });
    symlinkSync(victim, dated);
    const a = selfSigned('system:node:a');
    const store = new FileStore({ dir, prefix: 'nodeagent-client' });
    store.update(a.cert, a.key, when);
    assert.equal(readFileSync(victim, 'utf8'), 'not yours\n', 'the symlink\'s target is untouched');
    assert.ok(lstatSync(dated).isFile(), 'the symlink was replaced by a file');
    assert.equal(lstatSync(dated).mode & 0o777, 0o600);
    assert.equal(store.current().leaf.serialNumber, new X509Certificate(a.cert).serialNumber);

    // A world-readable file at the name (a second rotation within the second finds its own) is replaced too.
    unlinkSync(dated);
    writeFileSync(dated, 'old\n', { mode: 0o644 });
    const b = selfSigned('system:node:a');
    store.update(b.cert, b.key, when);
    assert.equal(lstatSync(dated).mode & 0o777, 0o600);
    assert.equal(store.current().leaf.serialNumber, new X509Certificate(b.cert).serialNumber);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temp file left');
  });

  it('finishes a swap interrupted between removing -current and renaming -updated', () => {
    const dir = tempDir('plat-store-');
    const store = new FileStore({ dir, prefix: 'nodeagent-server' });
    const a = selfSigned('system:node:a');
    store.update(a.cert, a.key);
    const link = path.join(dir, 'nodeagent-server-current.pem');
    const target = readlinkSync(link);
    unlinkSync(link);
    symlinkSync(target, path.join(dir, 'nodeagent-server-updated.pem'));
    assert.equal(store.current().leaf.subject.includes('system:node:a'), true);
    assert.equal(readlinkSync(link), target);
  });

  it('falls back to <prefix>.crt/.key and names every place it looked', () => {
    const dir = tempDir('plat-store-');
    const store = new FileStore({ dir, prefix: 'nodeagent-client' });
    // FileStore.Current's text names the cert and key directories, not the <prefix>.crt/.key in them.
    assert.throws(() => store.current(), (e: Error) => e instanceof NoCertKeyError
      && e.message === `no cert/key files read at "${path.join(dir, 'nodeagent-client-current.pem')}", ("", "") or ("${dir}", "${dir}")`);
    const a = selfSigned('system:node:a');
    writeFileSync(path.join(dir, 'nodeagent-client.crt'), a.cert);
    writeFileSync(path.join(dir, 'nodeagent-client.key'), a.key);
    assert.match(store.current().leaf.subject, /system:node:a/);
  });

  it('refuses a current file that is not a pair with tls.X509KeyPair\'s words, the file named', () => {
    const a = selfSigned('system:node:a');
    const other = selfSigned('system:node:a');
    const cases: [string, string, string][] = [
      ['garbage', 'not a certificate\n', 'tls: failed to find any PEM data in certificate input'],
      ['a certificate alone', a.cert, 'tls: found a certificate rather than a key in the PEM for the private key'],
      ['another certificate\'s key', a.cert + other.key, 'tls: private key does not match public key'],
    ];
    for (const [name, pem, reason] of cases) {
      const dir = tempDir('plat-store-');
      writeFileSync(path.join(dir, 'x.pem'), pem);
      const current = path.join(dir, 'nodeagent-client-current.pem');
      symlinkSync(path.join(dir, 'x.pem'), current);
      const store = new FileStore({ dir, prefix: 'nodeagent-client' });
      assert.throws(() => store.current(), { message: `could not convert data from "${current}" into cert/key pair: ${reason}` }, name);
    }
  });

  it('says which files it loads, as certificate_store.go\'s Current does', () => {
    const dir = tempDir('plat-store-');
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const a = selfSigned('system:node:a');
    const crt = path.join(dir, 'nodeagent-client.crt');
    const key = path.join(dir, 'nodeagent-client.key');
    writeFileSync(crt, a.cert);
    writeFileSync(key, a.key);
    const store = new FileStore({ dir, prefix: 'nodeagent-client', logger });
    store.current();
    store.update(a.cert, a.key);
    store.current();
    assert.deepEqual(lines.map((l) => l.replace(/^I.*\] /, '')), [
      `Loading cert/key pair from ("${crt}", "${key}").`,
      `Loading cert/key pair from "${path.join(dir, 'nodeagent-client-current.pem')}".`,
    ]);
  });

  it('dated names use local time in Go\'s 2006-01-02-15-04-05 layout', () => {
    assert.equal(datedStamp(new Date(2026, 10, 22, 9, 8, 7)), '2026-11-22-09-08-07');
  });
});

describe('certificate manager schedule and template', () => {
  it('the rotation deadline lies in [70%, 90%) of the lifetime', () => {
    const nb = new Date(0);
    const na = new Date(1000_000);
    assert.equal(rotationDeadline(nb, na, 0).getTime(), 700_000);
    assert.equal(rotationDeadline(nb, na, 0.5).getTime(), 800_000);
    assert.equal(rotationDeadline(nb, na, 0.99).getTime(), 898_000);
  });

  it('a certificate missing a requested DNS name, IP or organization, or with another CN, does not fit', () => {
    const dir = tempDir('plat-store-');
    const store = new FileStore({ dir, prefix: 'nodeagent-server' });
    const c = selfSigned('system:node:a', { dns: ['a.example'], ips: ['10.0.0.1', '::1'] });
    const pair = store.update(c.cert, c.key);
    const t = { commonName: 'system:node:a', organizations: ['system:nodes'], dnsNames: ['a.example'], ipAddresses: ['10.0.0.1', '0:0:0:0:0:0:0:1'] };
    assert.equal(templateMismatch(pair, t), undefined);
    // certSatisfiesTemplateLocked's V(2) texts, in its order (CN, DNS names, IPs, orgs), sets listed sorted.
    const cases: [Partial<typeof t>, string][] = [
      [{ commonName: 'system:node:b', dnsNames: ['b.example'] }, 'Current certificate CN (system:node:a) does not match requested CN (system:node:b)'],
      [{ dnsNames: ['c.example', 'a.example', 'b.example'], ipAddresses: ['10.0.0.2'] }, 'Current certificate is missing requested DNS names [b.example c.example]'],
      [{ ipAddresses: ['10.0.0.3', '10.0.0.2'], organizations: ['other'] }, 'Current certificate is missing requested IP addresses [10.0.0.2 10.0.0.3]'],
      [{ organizations: ['other', 'system:nodes'] }, 'Current certificate is missing requested orgs [other]'],
    ];
    for (const [change, text] of cases) assert.equal(templateMismatch(pair, { ...t, ...change }), text);
  });

  it('several organizations, one multi-valued RDN as Go writes them, fit a template asking for them', () => {
    const store = new FileStore({ dir: tempDir('plat-store-'), prefix: 'nodeagent-client' });
    const c = selfSigned('system:node:a', { orgs: ['system:nodes', 'ops'] });
    const pair = store.update(c.cert, c.key);
    const t = { commonName: 'system:node:a', organizations: ['ops', 'system:nodes'], dnsNames: [], ipAddresses: [] };
    assert.equal(templateMismatch(pair, t), undefined);
    assert.equal(templateMismatch(pair, { ...t, organizations: ['ops', 'dev'] }), 'Current certificate is missing requested orgs [dev]');
  });

  it('serving SANs come from the addresses as upstream sorts them', () => {
    assert.deepEqual(servingTemplate('n', [
      { type: 'Hostname', address: 'n.example' }, { type: 'InternalIP', address: '10.0.0.2' }, { type: 'ExternalIP', address: '10.0.0.10' },
      { type: 'InternalDNS', address: 'a.internal' }, { type: 'InternalIP', address: '10.0.0.2' },
    ], false), { commonName: 'system:node:n', organizations: ['system:nodes'], dnsNames: ['a.internal', 'n.example'], ipAddresses: ['10.0.0.10', '10.0.0.2'] });
    assert.deepEqual(servingTemplate('n', [{ type: 'Hostname', address: '192.168.1.1' }], false)!.ipAddresses, ['192.168.1.1']);
  });

  it('key encipherment is asked for only with RSA keys', () => {
    assert.deepEqual(usagesFor('client', generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey), ['digital signature', 'client auth']);
    assert.deepEqual(usagesFor('serving', generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey), ['digital signature', 'key encipherment', 'server auth']);
  });
});
