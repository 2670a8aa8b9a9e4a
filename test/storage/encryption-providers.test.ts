// The encryption providers and the EncryptionConfiguration file, without a server: upstream's
// formats (checked by decrypting with node:crypto independently), key rotation, identity, tamper
// and copy detection, wildcards, and the validation texts with their field paths.
import assert from 'node:assert/strict';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseEncryptionConfiguration } from '../../core/storage/encryption/config.js';
import { ResourceTransformers } from '../../core/storage/encryption/resource-transformers.js';

const KEY = '/registry/secrets/default/s1';
const AD = Buffer.from(KEY);
const PLAIN = JSON.stringify({ kind: 'Secret', metadata: { name: 's1' }, data: { password: Buffer.from('hunter2').toString('base64') } });
const k16 = randomBytes(16);
const k32 = randomBytes(32);
const k32b = randomBytes(32);

type P = Record<string, unknown>;
const aes = (type: string, ...keys: [string, Buffer][]): P => ({ [type]: { keys: keys.map(([name, k]) => ({ name, secret: k.toString('base64') })) } });
const doc = (resources: { resources: string[]; providers: P[] }[]) =>
  JSON.stringify({ apiVersion: 'apiserver.platform/v1', kind: 'EncryptionConfiguration', resources });
const transformers = (providers: P[], resources = ['secrets']) =>
  new ResourceTransformers(parseEncryptionConfiguration(doc([{ resources, providers }]), 'enc.yaml'));
const secrets = (providers: P[]) => transformers(providers).forResource('', 'secrets');
/** The base64 part after `prefix`, as bytes. */
const body = (stored: string, prefix: string): Buffer => {
  assert.ok(stored.startsWith(prefix), stored.slice(0, 40));
  return Buffer.from(stored.slice(prefix.length), 'base64');
};
const readText = (t: ReturnType<typeof secrets>, stored: unknown, ad = AD) => {
  const r = t.read(stored, ad);
  assert.ok('text' in r);
  return r.text;
};

describe('encryption providers: formats', () => {
  it('aescbc: k8s:enc:aescbc:v1:<name>: then a random IV and the PKCS#7-padded CBC ciphertext', () => {
    const t = secrets([aes('aescbc', ['key1', k32])]);
    const stored = t.write(PLAIN, AD)!;
    const bytes = body(stored, 'k8s:enc:aescbc:v1:key1:');
    assert.equal(bytes.length, 16 + (Math.floor(Buffer.byteLength(PLAIN) / 16) + 1) * 16);
    const d = createDecipheriv('aes-256-cbc', k32, bytes.subarray(0, 16));
    assert.equal(Buffer.concat([d.update(bytes.subarray(16)), d.final()]).toString(), PLAIN);
    assert.equal(readText(t, stored), PLAIN);
    assert.notEqual(t.write(PLAIN, AD), stored, 'a fresh IV each write');
  });

  it('aesgcm: a 12-byte nonce, the ciphertext and its tag, the storage key authenticated', () => {
    const t = secrets([aes('aesgcm', ['k', k16])]);
    const stored = t.write(PLAIN, AD)!;
    const bytes = body(stored, 'k8s:enc:aesgcm:v1:k:');
    assert.equal(bytes.length, 12 + Buffer.byteLength(PLAIN) + 16);
    const d = createDecipheriv('aes-128-gcm', k16, bytes.subarray(0, 12));
    d.setAAD(AD);
    d.setAuthTag(bytes.subarray(bytes.length - 16));
    assert.equal(Buffer.concat([d.update(bytes.subarray(12, bytes.length - 16)), d.final()]).toString(), PLAIN);
    assert.equal(readText(t, stored), PLAIN);
    // Copied under another key, it no longer reads.
    assert.throws(() => t.read(stored, Buffer.from('/registry/secrets/default/other')), { message: 'cipher: message authentication failed' });
  });

  it('secretbox: a 24-byte nonce then the box (tag first)', () => {
    const t = secrets([aes('secretbox', ['sb', k32])]);
    const stored = t.write(PLAIN, AD)!;
    assert.equal(body(stored, 'k8s:enc:secretbox:v1:sb:').length, 24 + 16 + Buffer.byteLength(PLAIN));
    assert.equal(readText(t, stored), PLAIN);
    const bytes = body(stored, 'k8s:enc:secretbox:v1:sb:');
    bytes[30]! ^= 1;
    assert.throws(() => t.read(`k8s:enc:secretbox:v1:sb:${bytes.toString('base64')}`, AD), { message: 'output array was not large enough for encryption' });
  });

  it("secretbox opens NaCl's box: golang.org/x/crypto's TestSecretBox vector (made with the C NaCl)", () => {
    const t = secrets([aes('secretbox', ['v', Buffer.alloc(32, 1)])]);
    const box = Buffer.from('8442bc313f4626f1359e3b50122b6ce6fe66ddfe7d39d14e637eb4fd5b45beadab55198df6ab5368439792a23c87db70' +
      'acb6156dc5ef957ac04f6276cf6093b84be77ff0849cc33e34b7254d5a8f65ad', 'hex');
    const stored = `k8s:enc:secretbox:v1:v:${Buffer.concat([Buffer.alloc(24, 2), box]).toString('base64')}`;
    assert.equal(readText(t, stored), '\x03'.repeat(64));
  });
});

describe('encryption providers: reading', () => {
  it('rotation: written with the first key, read with any listed one', () => {
    const old = secrets([aes('aescbc', ['key1', k32])]).write(PLAIN, AD)!;
    const rotated = secrets([aes('aescbc', ['key2', k32b], ['key1', k32])]);
    assert.equal(readText(rotated, old), PLAIN);
    assert.ok(rotated.write(PLAIN, AD)!.startsWith('k8s:enc:aescbc:v1:key2:'));
    // Two entries of one provider share its prefix: the later one is still tried.
    const split = secrets([aes('aescbc', ['key2', k32b]), aes('aescbc', ['key1', k32])]);
    assert.equal(readText(split, old), PLAIN);
    // The key dropped: no provider reads it.
    assert.throws(() => secrets([aes('aescbc', ['key2', k32b])]).read(old, AD), { message: 'no matching key was found for the provided AES transformer' });
  });

  it('identity first writes plaintext and reads encrypted values; without identity plaintext is refused', () => {
    const encrypted = secrets([aes('aesgcm', ['key1', k32])]).write(PLAIN, AD)!;
    const identityFirst = secrets([{ identity: {} }, aes('aesgcm', ['key1', k32])]);
    assert.equal(identityFirst.write(PLAIN, AD), undefined);
    assert.equal(readText(identityFirst, encrypted), PLAIN);
    const obj = JSON.parse(PLAIN);
    assert.deepEqual(identityFirst.read(obj, AD), { plain: obj, stale: false });
    assert.throws(() => secrets([aes('aesgcm', ['key1', k32])]).read(obj, AD), { message: 'no matching prefix found' });
    assert.throws(() => secrets([{ identity: {} }]).read(encrypted, AD), { message: 'no matching prefix found' });
    // Resources no entry names: identity that refuses encrypted values.
    const other = transformers([aes('aesgcm', ['key1', k32])]).forResource('certificates.platform', 'certificatesigningrequests');
    assert.equal(other.write(PLAIN, AD), undefined);
    assert.throws(() => other.read(encrypted, AD), { message: 'identity transformer tried to read encrypted data' });
  });

  it('stale: read by another provider or key than writes use (upstream\'s transformer stale), so a rewrite must write', () => {
    const byKey1 = secrets([aes('aescbc', ['key1', k32])]).write(PLAIN, AD)!;
    const byKey2 = secrets([aes('aescbc', ['key2', k32b])]).write(PLAIN, AD)!;
    const stale = (t: ReturnType<typeof secrets>, stored: unknown) => t.read(stored, AD).stale;
    const rotated = secrets([aes('aescbc', ['key2', k32b], ['key1', k32])]);
    assert.equal(stale(rotated, byKey2), false, 'the first key');
    assert.equal(stale(rotated, byKey1), true, 'the second key');
    assert.equal(stale(secrets([aes('aescbc', ['key2', k32b]), aes('aescbc', ['key1', k32])]), byKey1), true, 'the second provider entry');
    const obj = JSON.parse(PLAIN);
    assert.equal(stale(secrets([aes('aescbc', ['key1', k32]), { identity: {} }]), obj), true, 'plaintext read by identity after a provider');
    assert.equal(stale(secrets([{ identity: {} }, aes('aescbc', ['key1', k32])]), byKey1), true, 'decrypting everything');
    assert.equal(stale(secrets([{ identity: {} }, aes('aescbc', ['key1', k32])]), obj), false);
  });

  it('a flipped byte fails: GCM by its tag, CBC by its padding', () => {
    const gcm = secrets([aes('aesgcm', ['key1', k32])]);
    const g = body(gcm.write(PLAIN, AD)!, 'k8s:enc:aesgcm:v1:key1:');
    g[20]! ^= 0x01;
    assert.throws(() => gcm.read(`k8s:enc:aesgcm:v1:key1:${g.toString('base64')}`, AD), { message: 'cipher: message authentication failed' });
    const cbc = secrets([aes('aescbc', ['key1', k32])]);
    const c = body(cbc.write(PLAIN, AD)!, 'k8s:enc:aescbc:v1:key1:');
    // CBC's malleability: flipping a byte of the block before the last flips the same plaintext
    // byte, here the last padding byte, to a count the bytes before it do not repeat.
    const pad = 16 - (Buffer.byteLength(PLAIN) % 16);
    c[c.length - 17]! ^= pad ^ (pad === 16 ? 15 : pad + 1);
    assert.throws(() => cbc.read(`k8s:enc:aescbc:v1:key1:${c.toString('base64')}`, AD), { message: 'invalid padding on input' });
    c[c.length - 17]! ^= 0x80 ^ pad ^ (pad === 16 ? 15 : pad + 1);
    assert.throws(() => cbc.read(`k8s:enc:aescbc:v1:key1:${c.toString('base64')}`, AD), { message: 'invalid PKCS7 data (empty or not padded)' });
    assert.throws(() => cbc.read('k8s:enc:aescbc:v1:key1:AAAA', AD), { message: 'the stored data was shorter than the required size' });
    assert.throws(() => cbc.read('k8s:enc:aescbc:v1:key1:not base64!', AD), { message: 'illegal base64 data in the stored value' });
  });

  it("wildcards: '*.' is the core group, '*.*' every group, an exact entry first", () => {
    const core = transformers([aes('aescbc', ['key1', k32])], ['*.']);
    assert.ok(core.forResource('', 'configmaps').write(PLAIN, AD));
    assert.equal(core.forResource('certificates.platform', 'certificatesigningrequests').write(PLAIN, AD), undefined);
    const all = transformers([aes('aescbc', ['key1', k32])], ['*.*']);
    assert.ok(all.forResource('certificates.platform', 'certificatesigningrequests').write(PLAIN, AD));
    const both = new ResourceTransformers(parseEncryptionConfiguration(doc([
      { resources: ['secrets'], providers: [aes('aesgcm', ['g', k32])] },
      { resources: ['*.*'], providers: [aes('aescbc', ['c', k32])] },
    ]), 'enc.yaml'));
    assert.ok(both.forResource('', 'secrets').write(PLAIN, AD)!.startsWith('k8s:enc:aesgcm:v1:g:'));
    assert.ok(both.forResource('', 'configmaps').write(PLAIN, AD)!.startsWith('k8s:enc:aescbc:v1:c:'));
    assert.throws(() => new ResourceTransformers(parseEncryptionConfiguration(doc([
      { resources: ['*.'], providers: [{ identity: {} }] },
      { resources: ['secrets'], providers: [aes('aescbc', ['c', k32])] },
    ]), 'enc.yaml')), { message: 'resource "secrets" is masked by earlier rule "*."' });
  });
});

describe('EncryptionConfiguration validation', () => {
  const bad = (resources: { resources: string[]; providers: P[] }[]) => () => parseEncryptionConfiguration(doc(resources), 'enc.yaml');
  const cases: [string, () => unknown, string][] = [
    ['no resources', bad([]), 'resources: Required value: at least one resources is required'],
    ['a short key', bad([{ resources: ['secrets'], providers: [aes('aescbc', ['key1', Buffer.alloc(8)])] }]),
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]'],
    ['a secretbox key of 16', bad([{ resources: ['secrets'], providers: [aes('secretbox', ['k', k16])] }]),
      'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]'],
    ['no keys, no providers', bad([{ resources: ['secrets'], providers: [{ aesgcm: { keys: [] } }] }, { resources: ['configmaps'], providers: [] }]),
      '[resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required, resources[1].providers: Required value: at least one resources[1].providers is required]'],
    ['a key without name or secret', bad([{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: '', secret: '' }] } }] }]),
      '[resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Required value: secret is a mandatory field for a key]'],
    ['a secret not base64', bad([{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'k', secret: 'not base64!' }] } }] }]),
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded'],
    ['two providers in one element', bad([{ resources: ['secrets'], providers: [{ ...aes('aescbc', ['k', k32]), identity: {} }] }]),
      'resources[0].providers[0]: Invalid value: ["aescbc","identity"]: more than one provider specified in a single element, should split into different list elements'],
    ['kms', bad([{ resources: ['secrets'], providers: [{ kms: { name: 'vault', endpoint: 'unix:///kms.sock' } }] }]),
      'resources[0].providers[0].kms: Forbidden: KMS providers are not supported by plat (it has no KMS plugin client): use aesgcm, aescbc or secretbox'],
    ['resource names', bad([{ resources: ['Secrets', 'deployments.extensions', 'foo.*'], providers: [{ identity: {} }] }, { resources: ['*'], providers: [{ identity: {} }] }]),
      '[resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters, ' +
      "resources[0].resources[1]: Invalid value: \"deployments.extensions\": 'extensions' group has been removed and cannot be used for encryption, " +
      'resources[0].resources[2]: Invalid value: "foo.*": encrypting the same resource across groups is not supported, ' +
      "resources[1].resources[0]: Invalid value: \"*\": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources]"],
    ['duplicate and overlapping', bad([{ resources: ['secrets', 'secrets', '*.'], providers: [{ identity: {} }] }]),
      '[resources[0].resources: Invalid value: ["secrets","secrets","*."]: the same resource cannot be specified multiple times, ' +
      "resources[0].resources: Invalid value: [\"secrets\",\"secrets\",\"*.\"]: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked]"],
    ["upstream's apiVersion", () => parseEncryptionConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: []\n', 'enc.yaml'),
      'apiVersion: Unsupported value: "apiserver.config.k8s.io/v1": supported values: "apiserver.platform/v1" (plat\'s group is apiserver.platform: "apiserver.platform/v1")'],
    ['no kind', () => parseEncryptionConfiguration('apiVersion: apiserver.platform/v1\nresources: []\n', 'enc.yaml'), 'kind: Required value: "EncryptionConfiguration"'],
    ['an empty file', () => parseEncryptionConfiguration('', 'enc.yaml'), 'encryption provider configuration file "enc.yaml" is empty'],
    ['a wrong type', () => parseEncryptionConfiguration('apiVersion: apiserver.platform/v1\nkind: EncryptionConfiguration\nresources:\n- resources: secrets\n  providers: [{identity: {}}]\n', 'enc.yaml'),
      'resources[0].resources: must be a list'],
  ];
  for (const [name, fn, message] of cases) {
    it(name, () => assert.throws(fn, (e: Error) => { assert.equal(e.message, message); return true; }));
  }

  it('never shows a secret', () => {
    const secret = Buffer.from('0123456789').toString('base64');
    assert.throws(bad([{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'k', secret }] } }] }]), (e: Error) => !e.message.includes(secret));
  });

  it('reads YAML', () => {
    const yaml = `apiVersion: apiserver.platform/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aesgcm:
          keys:
            - name: key1
              secret: ${k32.toString('base64')}
      - identity: {}
`;
    const t = new ResourceTransformers(parseEncryptionConfiguration(yaml, 'enc.yaml')).forResource('', 'secrets');
    assert.ok(t.write(PLAIN, AD)!.startsWith('k8s:enc:aesgcm:v1:key1:'));
  });
});
