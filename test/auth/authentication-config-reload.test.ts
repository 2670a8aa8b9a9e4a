// --authentication-config re-read while the API server runs (1.32's ApplyTo watch and
// authenticationConfigUpdater): `plat all` in-process over HTTPS, real OIDC issuers over HTTPS on
// 127.0.0.1, the file changed by a Secret-volume `..data` symlink swap, an in-place write and an
// atomic rename; a new audience is accepted and a removed issuer's tokens refused once the reload
// is logged; a file that does not validate, and one changing `anonymous`, are kept out; an issuer
// not ready in time is not swapped in, and is once it answers. Short, injected intervals; every
// wait is a bounded loop, nothing is timed.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiserverIdentity, apiserverIdHash } from '../../core/metrics/apiserver-config-reload.js';
import { authenticationConfigReloader, createOidcAuthenticator } from '../../plugins/authn-oidc/index.js';
import { Logs, until } from '../csrsigning/support.js';
import { TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';
const HEAD = 'apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\n';
const indent = (text: string, n: number) => text.trim().split('\n').map((l) => ' '.repeat(n) + l).join('\n');

/** A `jwt` entry: usernames `<prefix>:<sub>`, so the issuer that took a token shows. */
const entry = (issuer: TestOidcIssuer, audiences: string[], prefix: string) => [
  '- issuer:',
  `    url: ${issuer.url}`,
  `    audiences: [${audiences.join(', ')}]`,
  ...(audiences.length > 1 ? ['    audienceMatchPolicy: MatchAny'] : []),
  '    certificateAuthority: |',
  indent(issuer.caPem, 6),
  '  claimMappings:',
  `    username: {claim: sub, prefix: "${prefix}:"}`,
].join('\n');
const config = (...entries: string[]) => `${HEAD}jwt:\n${entries.join('\n')}\n`;

describe('--authentication-config changed while the API server runs', () => {
  const dir = tempDir();
  const cfgDir = path.join(dir, 'cfg');
  const file = path.join(cfgDir, 'authn.yaml');
  const [a, b, c] = [new TestOidcIssuer(), new TestOidcIssuer(), new TestOidcIssuer()];
  const logs = new Logs();
  let plat: RunningPlat;

  /** The username a token is served as, or the status of the refusal. */
  const whoami = async (token: string): Promise<string | number> => {
    const r = await plat.admin.with({ token }).post(REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    return r.status === 201 ? r.json.status.userInfo.username as string : r.status;
  };
  const tok = (issuer: TestOidcIssuer, aud: string, sub = 'alice') => issuer.sign(issuer.claims({ sub }, aud));
  const reloads = () => logs.count('] reloaded authentication config');
  const reloadMetric = async (status: string): Promise<number> => {
    const text = (await plat.admin.get('/metrics')).text;
    const line = `apiserver_authentication_config_controller_automatic_reloads_total{apiserver_id_hash="${apiserverIdHash(apiserverIdentity())}",status="${status}"} `;
    const found = text.split('\n').find((l) => l.startsWith(line));
    return found === undefined ? 0 : Number(found.slice(line.length));
  };

  before(async () => {
    await Promise.all([a.start(), b.start()]);
    // Laid out as a Secret volume: authn.yaml -> ..data/authn.yaml, ..data -> ..v1.
    mkdirSync(path.join(cfgDir, '..v1'), { recursive: true });
    writeFileSync(path.join(cfgDir, '..v1', 'authn.yaml'), config(entry(a, ['aud-a'], 'a')));
    symlinkSync('..v1', path.join(cfgDir, '..data'));
    symlinkSync('..data/authn.yaml', file);
    plat = await startInProcess({
      logger: logs.logger,
      args: ['--authentication-config', file],
      replace: [createOidcAuthenticator({ reloadIntervalMs: 100, healthPollMs: 50, updateTimeoutMs: 1_000, retireAfterMs: 100, retryDelaysMs: [50] })],
    });
    await until(async () => await whoami(tok(a, 'aud-a')) === 'a:alice', 'issuer a\'s keys');
  });
  after(async () => {
    await plat.stop();
    await Promise.all([a.stop(), b.stop(), c.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the start-up file: audience aud-a only', async () => {
    assert.deepEqual([await whoami(tok(a, 'aud-b')), await whoami(tok(b, 'aud-b'))], [401, 401]);
    assert.equal(reloads(), 0);
  });

  it('a ..data symlink swap: the new audience is accepted, the removed one refused', async () => {
    mkdirSync(path.join(cfgDir, '..v2'));
    writeFileSync(path.join(cfgDir, '..v2', 'authn.yaml'), config(entry(a, ['aud-b'], 'a')));
    symlinkSync('..v2', path.join(cfgDir, '..data_tmp'));
    renameSync(path.join(cfgDir, '..data_tmp'), path.join(cfgDir, '..data'));
    rmSync(path.join(cfgDir, '..v1'), { recursive: true });
    await until(async () => await whoami(tok(a, 'aud-b')) === 'a:alice', 'the new audience');
    assert.equal(await whoami(tok(a, 'aud-a')), 401, 'the removed audience');
    assert.equal(reloads(), 1, logs.lines.join('\n'));
    assert.equal(await reloadMetric('success'), 1);
  });

  it('an in-place write: a removed issuer\'s tokens are refused, an added issuer\'s accepted', async () => {
    // Through the symlink, into ..v2/authn.yaml.
    writeFileSync(file, config(entry(b, ['aud-b'], 'b')));
    await until(async () => await whoami(tok(b, 'aud-b', 'bob')) === 'b:bob', 'issuer b');
    assert.equal(await whoami(tok(a, 'aud-b')), 401, 'issuer a is gone');
  });

  it('an atomic rename: several issuers and audiences', async () => {
    const tmp = path.join(cfgDir, '.authn.yaml.tmp');
    writeFileSync(tmp, config(entry(b, ['aud-b'], 'b'), entry(a, ['aud-a', 'aud-c'], 'a')));
    renameSync(tmp, file);
    await until(async () => await whoami(tok(a, 'aud-c')) === 'a:alice', 'issuer a back with aud-c');
    assert.deepEqual([await whoami(tok(a, 'aud-a')), await whoami(tok(b, 'aud-b', 'bob')), await whoami(tok(a, 'aud-b'))], ['a:alice', 'b:bob', 401]);
  });

  it('keeps a file that does not validate out, logs it once, and counts the failure', async () => {
    const before = await reloadMetric('failure');
    // By rename: an in-place write may first be read empty, a failure of its own (`empty config data`).
    const tmp = path.join(cfgDir, '.authn.yaml.tmp');
    writeFileSync(tmp, `${HEAD}jwt:\n- issuer: {url: "http://insecure.example", audiences: [x]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n`);
    renameSync(tmp, file);
    const refused = '] failed to validate authentication config err="jwt[0].issuer.url: Invalid value: \\"http://insecure.example\\": URL scheme must be https';
    await until(() => logs.has(refused), 'the refusal');
    await authenticationConfigReloader(plat.host!)!.reload();
    assert.equal(logs.count(refused), 1, 'the same bytes are not tried again');
    assert.deepEqual([await whoami(tok(a, 'aud-c')), await whoami(tok(b, 'aud-b', 'bob'))], ['a:alice', 'b:bob'], 'the current configuration stays');
    assert.equal(await reloadMetric('failure'), before + 1);
  });

  it('refuses a changed anonymous section (read at start-up only) and keeps the current configuration', async () => {
    writeFileSync(file, `${config(entry(b, ['aud-b'], 'b'))}anonymous: {enabled: true}\n`);
    await until(() => logs.has('] failed to validate authentication config err="anonymous: Forbidden: changed from initial configuration file"'), 'the anonymous refusal');
    assert.equal(await whoami(tok(a, 'aud-c')), 'a:alice', 'issuer a is still configured');
    assert.equal((await plat.admin.with({ anonymous: true }).get('/version')).status, 401, 'still no anonymous access');
  });

  it('swaps in a new issuer only once its keys load: not in time is logged and retried', async () => {
    await c.start();
    const url = c.url;
    await c.stop();
    const failures = logs.count('] failed to update authentication config err=');
    writeFileSync(file, config(entry(b, ['aud-b'], 'b'), entry(c, ['aud-c'], 'c')));
    await until(() => logs.count('] failed to update authentication config err=') > failures, 'the update to time out');
    assert.match(logs.lines.find((l) => l.includes('] failed to update authentication config err='))!,
      new RegExp(`err="\\[oidc: authenticator for issuer \\\\"${url.replace(/[.]/g, '\\.')}\\\\" is not healthy: .*, context deadline exceeded\\]"`));
    assert.equal(await whoami(tok(a, 'aud-c')), 'a:alice', 'the serving set is untouched');
    assert.equal(await whoami(tok(b, 'aud-b', 'bob')), 'b:bob');
    await c.start();
    await until(async () => await whoami(tok(c, 'aud-c', 'carol')) === 'c:carol', 'issuer c once it answers');
    assert.equal(await whoami(tok(a, 'aud-c')), 401, 'issuer a is gone');
  });
});
