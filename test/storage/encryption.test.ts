// Encryption at rest through the running API server (--encryption-provider-config): a Secret is
// stored as upstream's prefix and ciphertext (read back from the LMDB store directly, after the
// server stops) and served as plaintext (GET, LIST, watch); keys rotate; identity first reads what
// was encrypted; a changed stored value is a 500 with upstream's text; bad files refuse start-up;
// resources the file does not name (CSRs) stay plaintext; automatic reload applies a new file and
// keeps the current one when the new one is bad.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { openLmdbStorage } from '../../core/storage/lmdb.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { createBootstrapToken } from '../helpers/bootstrap-token.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { waitUntil, WatchStream } from '../helpers/watch-stream.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const key1 = randomBytes(32).toString('base64');
const key2 = randomBytes(16).toString('base64');

function configFile(dir: string, name: string, providers: unknown[], resources = ['secrets']): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.platform/v1', kind: 'EncryptionConfiguration', resources: [{ resources, providers }] }));
  return file;
}
const aescbc = (...keys: [string, string][]) => ({ aescbc: { keys: keys.map(([name, secret]) => ({ name, secret })) } });

/** A Secret whose data and label are markers to look for in the store's bytes. */
function secret(name: string) {
  const marker = `plaintext-marker-${name}-${randomBytes(4).toString('hex')}`;
  return { marker, data: Buffer.from(marker).toString('base64'), body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: Buffer.from(marker).toString('base64') } } };
}

/** The stored values of `keys`, read from the stopped server's store as the engine has them. */
async function storedValues(dataDir: string, keys: string[]): Promise<unknown[]> {
  const s = await openLmdbStorage({ path: path.join(dataDir, 'store') });
  try {
    return await Promise.all(keys.map(async (k) => (await s.get(k))?.value));
  } finally {
    await s.close();
  }
}
const secretKey = (name: string) => `/registry/secrets/default/${name}`;

describe('encryption at rest', () => {
  const dir = tempDir('plat-encryption-');
  const dataDir = path.join(dir, 'data');
  let plat: RunningPlat | undefined;
  let watch: WatchStream | undefined;
  after(async () => {
    watch?.close();
    await plat?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (file: string, args: string[] = [], logLines?: string[]) => {
    plat = await startInProcess({
      dataDir, args: ['--encryption-provider-config', file, ...args],
      ...(logLines ? { logger: createLogger({ verbosity: 2, write: (l) => logLines.push(l) }) } : {}),
    });
    return plat.admin;
  };
  const stop = async () => { await plat?.stop(); plat = undefined; };
  const s1 = secret('s1');
  const s2 = secret('s2');

  it('aescbc: stored as k8s:enc:aescbc:v1:key1: and ciphertext, served as plaintext; CSRs stay plaintext', async () => {
    const admin = await start(configFile(dir, 'key1.json', [aescbc(['key1', key1])]), ['--enable-bootstrap-token-auth']);
    watch = await WatchStream.open(admin, `${SECRETS}?watch=true&fieldSelector=metadata.name%3Ds1`);
    const created = await admin.post(SECRETS, s1.body);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.password, s1.data);
    const got = await admin.get(`${SECRETS}/s1`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json.data.password, s1.data);
    const listed = await admin.get(SECRETS);
    assert.equal(listed.json.items.find((i: any) => i.metadata.name === 's1')?.data.password, s1.data);
    const event = await watch.waitFor((e) => e.type === 'ADDED', 'the ADDED event');
    assert.equal(event.object.data.password, s1.data);
    watch.close();
    watch = undefined;
    const csr = await admin.post(CSRS, baseCsr(fixtures(), 'plain-csr'));
    assert.equal(csr.status, 201, csr.text);
    // The bootstrap-token authenticator reads its (encrypted) Secret through the same store.
    const token = await createBootstrapToken(admin);
    const review = await admin.with({ token }).post('/apis/authentication.platform/v1/selfsubjectreviews', { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.json.status.userInfo.username, `system:bootstrap:${token.split('.')[0]}`);
    await stop();

    const [stored, storedCsr] = await storedValues(dataDir, [secretKey('s1'), '/registry/certificates.platform/certificatesigningrequests/plain-csr']);
    assert.equal(typeof stored, 'string');
    assert.match(stored as string, /^k8s:enc:aescbc:v1:key1:[A-Za-z0-9+/]+=*$/);
    assert.equal((storedCsr as any).metadata.name, 'plain-csr');
    // Neither the object record nor the event log holds the plaintext.
    const bytes = readFileSync(path.join(dataDir, 'store', 'data.mdb'));
    assert.equal(bytes.indexOf(s1.data), -1);
    assert.equal(bytes.indexOf(s1.marker), -1);
    assert.notEqual(bytes.indexOf('k8s:enc:aescbc:v1:key1:'), -1);
  });

  it('rotation: key2 first reads key1 values and writes with key2', async () => {
    const admin = await start(configFile(dir, 'key2-key1.json', [aescbc(['key2', key2], ['key1', key1])]));
    assert.equal((await admin.get(`${SECRETS}/s1`)).json.data.password, s1.data);
    assert.equal((await admin.post(SECRETS, s2.body)).status, 201);
    await stop();
    const [v1, v2] = await storedValues(dataDir, [secretKey('s1'), secretKey('s2')]);
    assert.match(v1 as string, /^k8s:enc:aescbc:v1:key1:/);
    assert.match(v2 as string, /^k8s:enc:aescbc:v1:key2:/);
  });

  it('identity first reads encrypted values and writes plaintext', async () => {
    const admin = await start(configFile(dir, 'identity.json', [{ identity: {} }, aescbc(['key2', key2], ['key1', key1])]));
    assert.equal((await admin.get(`${SECRETS}/s1`)).json.data.password, s1.data);
    const s3 = secret('s3');
    assert.equal((await admin.post(SECRETS, s3.body)).status, 201);
    await stop();
    const [v3] = await storedValues(dataDir, [secretKey('s3')]);
    assert.equal((v3 as any).data.password, s3.data);
  });

  it('a value no provider can read is a 500 with upstream\'s text, on GET and LIST', async () => {
    // s1 under key1 becomes unreadable once key1 is gone.
    const admin = await start(configFile(dir, 'key2.json', [aescbc(['key2', key2]), { identity: {} }]));
    const got = await admin.get(`${SECRETS}/s1`);
    assert.equal(got.status, 500, got.text);
    assert.equal(got.json.reason, 'InternalError');
    assert.equal(got.json.message, 'Internal error occurred: no matching key was found for the provided AES transformer');
    const listed = await admin.get(SECRETS);
    assert.equal(listed.status, 500, listed.text);
    assert.equal(listed.json.message, 'Internal error occurred: unable to transform key "/registry/secrets/default/s1": no matching key was found for the provided AES transformer');
    // s2 (key2) still reads.
    assert.equal((await admin.get(`${SECRETS}/s2`)).json.data.password, s2.data);
    // A create over it is etcd3's put-if-absent: 409 AlreadyExists, nothing decrypted.
    const over = await admin.post(SECRETS, s1.body);
    assert.equal(over.status, 409, over.text);
    assert.equal(over.json.message, 'secrets "s1" already exists');
    // The failed reads are counted with getErrorCode's status for an error outside gRPC.
    assert.match((await admin.get('/metrics')).text,
      /^apiserver_storage_transformation_operations_total\{status="unknown-non-grpc",transformation_type="from_storage",transformer_prefix="k8s:enc:aescbc:v1:"\} [1-9]\d*$/m);
    // A watch replaying s1's creation gets an ERROR event, as upstream's watcher sends, and ends.
    watch = await WatchStream.open(admin, `${SECRETS}?watch=true&resourceVersion=1`);
    const error = await watch.waitFor((e) => e.type === 'ERROR', 'the ERROR event');
    assert.equal(error.object.message, 'Internal error occurred: no matching key was found for the provided AES transformer');
    assert.equal(error.object.code, 500);
    await watch.waitEnd();
    watch.close();
    watch = undefined;
    await stop();
  });

  it('a flipped byte of an aesgcm value fails its tag: 500, not garbage', async () => {
    const gcm = configFile(dir, 'gcm.json', [{ aesgcm: { keys: [{ name: 'g', secret: key1 }] } }, { identity: {} }]);
    const admin = await start(gcm);
    const s4 = secret('s4');
    assert.equal((await admin.post(SECRETS, s4.body)).status, 201);
    await stop();
    const s = await openLmdbStorage({ path: path.join(dataDir, 'store') });
    try {
      const kv = (await s.get(secretKey('s4')))!;
      const prefix = 'k8s:enc:aesgcm:v1:g:';
      const bytes = Buffer.from((kv.value as string).slice(prefix.length), 'base64');
      bytes[bytes.length - 20]! ^= 0x01;
      await s.update(secretKey('s4'), prefix + bytes.toString('base64'), kv.modRevision);
      // The untouched value copied to another key: the key is authenticated, so it fails too.
      await s.create(secretKey('copied'), kv.value);
    } finally {
      await s.close();
    }
    const again = await start(gcm);
    for (const name of ['s4', 'copied']) {
      const got = await again.get(`${SECRETS}/${name}`);
      assert.equal(got.status, 500, got.text);
      assert.equal(got.json.message, 'Internal error occurred: cipher: message authentication failed');
    }
    await stop();
  });

  it('automatic reload takes a new file and keeps the current one when the new one is bad', async () => {
    const file = configFile(dir, 'reload.json', [aescbc(['key2', key2], ['key1', key1])]);
    const lines: string[] = [];
    const admin = await start(file, ['--encryption-provider-config-automatic-reload', '--v=2'], lines);
    assert.equal((await admin.get(`${SECRETS}/s1`)).status, 200);
    writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.platform/v1', kind: 'EncryptionConfiguration', resources: [{ resources: ['secrets'], providers: [aescbc(['key2', key2])] }] }));
    // key1 dropped: s1 stops reading once the new file is in force.
    await waitUntil(() => (lines.some((l) => l.includes('Loaded new encryption config content')) ? true : undefined), 'the reload');
    assert.equal((await admin.get(`${SECRETS}/s1`)).status, 500);
    writeFileSync(file, '{"apiVersion":"apiserver.platform/v1","kind":"EncryptionConfiguration","resources":[]}');
    const refused = await waitUntil(() => lines.find((l) => l.includes('reloading encryption config content failed')), 'the refusal');
    assert.match(refused, /resources: Required value: at least one resources is required/);
    assert.equal((await admin.get(`${SECRETS}/s2`)).status, 200);
    assert.equal((await admin.get(`${SECRETS}/s1`)).status, 500);
    await stop();
    assert.equal(lines.some((l) => l.includes(key1) || l.includes(key2)), false, 'no key is logged');
  });

  it('without automatic reload the file is read once', async () => {
    const file = configFile(dir, 'once.json', [aescbc(['key2', key2], ['key1', key1])]);
    const admin = await start(file);
    writeFileSync(file, 'not: [valid');
    assert.equal((await admin.get(`${SECRETS}/s1`)).status, 200);
    assert.equal((await admin.post(SECRETS, secret('s5').body)).status, 201);
    await stop();
  });
});

// Upstream's migration after a key change: rewrite every object unchanged (`kubectl get secrets -o
// json | kubectl replace -f -`). A value read with another key or provider than writes use is
// stale, and etcd3's GuaranteedUpdate writes it even when nothing changed; so must plat, or the
// old key could never be dropped.
describe('encryption at rest: an unchanged rewrite migrates a stale value', () => {
  const dir = tempDir('plat-encryption-migrate-');
  const dataDir = path.join(dir, 'data');
  let plat: RunningPlat | undefined;
  after(async () => { await plat?.stop(); rmSync(dir, { recursive: true, force: true }); });
  const start = async (file: string) => { plat = await startInProcess({ dataDir, args: ['--encryption-provider-config', file] }); return plat.admin; };
  const stop = async () => { await plat?.stop(); plat = undefined; };
  const m1 = secret('m1');
  const m2 = secret('m2');
  const m3 = secret('m3');

  it('a PUT of the object as read, or an empty patch, writes it again under the new first key; then it is no longer stale', async () => {
    let admin = await start(configFile(dir, 'k1.json', [aescbc(['key1', key1])]));
    for (const o of [m1, m2, m3]) assert.equal((await admin.post(SECRETS, o.body)).status, 201);
    await stop();

    admin = await start(configFile(dir, 'k2k1.json', [aescbc(['key2', key2], ['key1', key1])]));
    const read = (await admin.get(`${SECRETS}/m1`)).json;
    const put = await admin.request('PUT', `${SECRETS}/m1`, read);
    assert.equal(put.status, 200, put.text);
    assert.notEqual(put.json.metadata.resourceVersion, read.metadata.resourceVersion, 'written again');
    const again = await admin.request('PUT', `${SECRETS}/m1`, put.json);
    assert.equal(again.json.metadata.resourceVersion, put.json.metadata.resourceVersion, 'a no-op once it is current');
    const before = (await admin.get(`${SECRETS}/m2`)).json.metadata.resourceVersion;
    const patched = await admin.patch(`${SECRETS}/m2`, {}, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.text);
    assert.notEqual(patched.json.metadata.resourceVersion, before);
    // storage/value's metrics: reads and writes by each prefix (the provider's and the key's).
    const metrics = (await admin.get('/metrics')).text;
    const sample = (labels: string) => Number(new RegExp(`^apiserver_storage_transformation_operations_total\\{${labels.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    assert.ok(sample('status="OK",transformation_type="from_storage",transformer_prefix="key1:"') >= 2, metrics);
    assert.ok(sample('status="OK",transformation_type="from_storage",transformer_prefix="k8s:enc:aescbc:v1:"') >= 2);
    assert.ok(sample('status="OK",transformation_type="to_storage",transformer_prefix="key2:"') >= 2);
    assert.ok(sample('status="OK",transformation_type="to_storage",transformer_prefix="k8s:enc:aescbc:v1:"') >= 2);
    assert.match(metrics, /^apiserver_storage_transformation_duration_seconds_count\{transformation_type="to_storage",transformer_prefix="key2:"\} \d+$/m);
    await stop();
    const [v1, v2, v3] = await storedValues(dataDir, [secretKey('m1'), secretKey('m2'), secretKey('m3')]);
    assert.match(v1 as string, /^k8s:enc:aescbc:v1:key2:/);
    assert.match(v2 as string, /^k8s:enc:aescbc:v1:key2:/);
    assert.match(v3 as string, /^k8s:enc:aescbc:v1:key1:/, 'not rewritten, not migrated');

    // Decrypting everything: identity first, an unchanged rewrite stores plaintext.
    admin = await start(configFile(dir, 'identity-first.json', [{ identity: {} }, aescbc(['key2', key2], ['key1', key1])]));
    const m3read = (await admin.get(`${SECRETS}/m3`)).json;
    assert.equal((await admin.request('PUT', `${SECRETS}/m3`, m3read)).status, 200);
    await stop();
    const [plain] = await storedValues(dataDir, [secretKey('m3')]);
    assert.equal((plain as any).data.password, m3.data);

    // key1 dropped: what was migrated still reads.
    admin = await start(configFile(dir, 'k2.json', [aescbc(['key2', key2]), { identity: {} }]));
    for (const [name, o] of [['m1', m1], ['m2', m2], ['m3', m3]] as const) {
      const got = await admin.get(`${SECRETS}/${name}`);
      assert.equal(got.status, 200, `${name}: ${got.text}`);
      assert.equal(got.json.data.password, o.data);
    }
    // m3 is plaintext now: read by identity.
    assert.match((await admin.get('/metrics')).text, /^apiserver_storage_transformation_operations_total\{status="OK",transformation_type="from_storage",transformer_prefix="identity"\} [1-9]\d*$/m);
    await stop();
  });
});

describe('encryption config refusals at start-up', () => {
  const dir = tempDir('plat-encryption-bad-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const refusal = (args: string[]) => bootRefusal('apiserver', ['--data-dir', path.join(dir, 'data'), '--secure-port', '0', ...args]);

  it('names the file, the field and the problem', async () => {
    const file = configFile(dir, 'short.json', [aescbc(['key1', Buffer.alloc(8).toString('base64')])]);
    const r = await refusal(['--encryption-provider-config', file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`--encryption-provider-config ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: error while parsing file: resources\\[0\\]\\.providers\\[0\\]\\.aescbc\\.keys\\[0\\]\\.secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of \\[16 24 32\\]`));
  });

  it('refuses kms, a missing file, and the reload flag alone', async () => {
    const kms = configFile(dir, 'kms.json', [{ kms: { name: 'vault', endpoint: 'unix:///tmp/kms.sock' } }]);
    assert.match((await refusal(['--encryption-provider-config', kms])).stderr, /kms: Forbidden: KMS providers are not supported by plat/);
    const missing = path.join(dir, 'missing.yaml');
    assert.match((await refusal(['--encryption-provider-config', missing])).stderr, /error opening encryption provider configuration file ".*missing\.yaml": open .*missing\.yaml: no such file or directory/);
    const alone = await refusal(['--encryption-provider-config-automatic-reload']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--encryption-provider-config-automatic-reload must be set with --encryption-provider-config/);
  });
});
