// Bootstrap tokens end to end: the Secret is created through the API as the admin, then a request
// bearing `<id>.<secret>` is system:bootstrap:<id> in system:bootstrappers (+ extras).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const SECRETS = '/api/v1/namespaces/plat-system/secrets';

function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}) {
  return {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.platform/token',
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...extra },
  };
}

describe('bootstrap token authentication', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const s of [
      tokenSecret('abcdef', '0123456789abcdef', { expiration: future, 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }),
      tokenSecret('expird', '0123456789abcdef', { expiration: past }),
      tokenSecret('nouse0', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }),
      tokenSecret('noexp0', '0123456789abcdef', { expiration: '', 'auth-extra-groups': '' }),
      tokenSecret('offset', '0123456789abcdef', { expiration: '2999-01-01T00:00:00.5+01:00' }),
    ]) {
      const r = await plat.admin.post(SECRETS, s);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => { await plat?.stop(); });

  it('an empty expiration never expires and empty extra groups are none, as cluster-bootstrap reads them', async () => {
    const r = await plat.admin.with({ token: 'noexp0.0123456789abcdef' }).post(CSRS, baseCsr(fx, 'boot-noexp'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.spec.groups, ['system:bootstrappers', 'system:authenticated']);
  });

  it('an RFC 3339 expiration with a fraction and an offset is read as Go reads it', async () => {
    const r = await plat.admin.with({ token: 'offset.0123456789abcdef' }).post(CSRS, baseCsr(fx, 'boot-offset'));
    assert.equal(r.status, 201, r.text);
  });

  it('a valid token creates a CSR as system:bootstrap:<id>', async () => {
    const r = await plat.admin.with({ token: 'abcdef.0123456789abcdef' }).post(CSRS, baseCsr(fx, 'boot-1'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'system:bootstrap:abcdef');
    assert.deepEqual(r.json.spec.groups, ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated']);
  });

  it('expired, wrong-secret, usage-false, unknown and malformed tokens are 401 and store nothing', async () => {
    for (const [i, token] of ['expird.0123456789abcdef', 'abcdef.0123456789abcdee', 'nouse0.0123456789abcdef', 'zzzzzz.0123456789abcdef', 'abcdef.short'].entries()) {
      const r = await plat.admin.with({ token }).post(CSRS, baseCsr(fx, `refused-${i}`));
      assert.equal(r.status, 401, `${token}: ${r.text}`);
      assert.equal((await plat.admin.get(`${CSRS}/refused-${i}`)).status, 404);
    }
  });
});

describe('a refused bootstrap token', () => {
  // What upstream's TokenReview says of any token no authenticator accepts, whichever check failed:
  // the reasons are the server's, at -v=3, in upstream's words (never with the presented secret).
  let plat: RunningPlat;
  const lines: string[] = [];
  before(async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tokens.csv'), 'static-token,erin,erin-uid\n');
    plat = await startInProcess({
      args: ['--enable-bootstrap-token-auth', '--token-auth-file', path.join(dir, 'tokens.csv'), '-v', '3'],
      logger: createLogger({ verbosity: 3, write: (l) => lines.push(l) }),
    });
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const s of [
      tokenSecret('abcdef', '0123456789abcdef'),
      tokenSecret('expird', '0123456789abcdef', { expiration: past }),
      tokenSecret('nouse0', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }),
      tokenSecret('otheri', '0123456789abcdef', { 'token-id': 'abcdef' }),
      tokenSecret('badgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:masters' }),
      { ...tokenSecret('opaque', '0123456789abcdef'), type: 'Opaque' },
      // Not time.RFC3339, so expired, though a JavaScript Date would read each as a future time.
      tokenSecret('bardat', '0123456789abcdef', { expiration: '2999-01-01' }),
      tokenSecret('nozone', '0123456789abcdef', { expiration: '2999-01-01T00:00:00' }),
      tokenSecret('rfc112', '0123456789abcdef', { expiration: 'Tue, 01 Jan 2999 00:00:00 GMT' }),
      // Group names are not trimmed, and an empty one is invalid.
      tokenSecret('spcgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:bootstrappers:a, system:bootstrappers:b' }),
      tokenSecret('trlgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:bootstrappers:a,' }),
    ]) {
      const r = await plat.admin.post(SECRETS, s);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => { await plat?.stop(); });

  const S = 'plat-system/bootstrap-token-';
  const cases: Array<{ name: string; token: string; logged?: string }> = [
    { name: 'a wrong secret', token: 'abcdef.0000000000000000', logged: `Bootstrap secret ${S}abcdef matching bearer token has invalid value for key token-secret.` },
    { name: 'an unknown id', token: 'zzzzzz.0000000000000000', logged: 'No secret of name bootstrap-token-zzzzzz to match bootstrap bearer token' },
    { name: 'an expired token', token: 'expird.0123456789abcdef', logged: `Expired bootstrap token in ${S}expird Secret: ` },
    { name: 'a token not for authentication', token: 'nouse0.0123456789abcdef', logged: `Bootstrap secret ${S}nouse0 matching bearer token not marked usage-bootstrap-authentication=true.` },
    { name: 'a Secret of another token id', token: 'otheri.0123456789abcdef', logged: `Bootstrap secret ${S}otheri matching bearer token has invalid value for key token-id, expected otheri.` },
    { name: 'a bad extra group', token: 'badgrp.0123456789abcdef', logged: `Bootstrap secret ${S}badgrp matching bearer token has invalid value for key auth-extra-groups: bootstrap group "system:masters" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z).` },
    { name: 'a Secret of another type', token: 'opaque.0123456789abcdef', logged: `Bootstrap secret ${S}opaque matching bearer token has invalid type, expected bootstrap.platform/token.` },
    { name: 'a bare date as expiration', token: 'bardat.0123456789abcdef', logged: `Unparseable expiration time (2999-01-01) in ${S}bardat Secret: parsing time "2999-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T". Treating as expired.` },
    { name: 'an expiration without a zone', token: 'nozone.0123456789abcdef', logged: `Unparseable expiration time (2999-01-01T00:00:00) in ${S}nozone Secret: parsing time "2999-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00". Treating as expired.` },
    { name: 'an RFC 1123 expiration', token: 'rfc112.0123456789abcdef', logged: `Unparseable expiration time (Tue, 01 Jan 2999 00:00:00 GMT) in ${S}rfc112 Secret: parsing time "Tue, 01 Jan 2999 00:00:00 GMT" as "2006-01-02T15:04:05Z07:00": cannot parse "Tue, 01 Jan 2999 00:00:00 GMT" as "2006". Treating as expired.` },
    { name: 'an extra group after a space', token: 'spcgrp.0123456789abcdef', logged: `Bootstrap secret ${S}spcgrp matching bearer token has invalid value for key auth-extra-groups: bootstrap group " system:bootstrappers:b" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z).` },
    { name: 'an empty extra group', token: 'trlgrp.0123456789abcdef', logged: `Bootstrap secret ${S}trlgrp matching bearer token has invalid value for key auth-extra-groups: bootstrap group "" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z).` },
    { name: 'a token of another form', token: 'abcdef.short' },
  ];
  for (const c of cases) {
    it(`${c.name}: TokenReview says only "invalid bearer token"; why is logged at -v=3`, async () => {
      const mark = lines.length;
      const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: c.token } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.status, { authenticated: false, error: 'invalid bearer token' });
      const logged = lines.slice(mark).filter((l) => l.includes('BootstrapTokenAuthenticator]'));
      if (c.logged === undefined) assert.deepEqual(logged, []);
      else assert.ok(logged.length === 1 && logged[0]!.includes(`] ${c.logged}`) && logged[0]!.startsWith('I'), logged.join('\n'));
      assert.doesNotMatch(lines.slice(mark).join('\n'), new RegExp(c.token.split('.')[1]!));
    });
  }

  it('a request bearing it is 401, and the server log says upstream\'s error: no authenticator\'s, the bearer token\'s default', async () => {
    const mark = lines.length;
    const r = await plat.admin.with({ token: 'abcdef.0000000000000000' }).get(CSRS);
    assert.equal(r.status, 401);
    // The token file and the bootstrap authenticator return no error for it (nil, false, nil).
    assert.ok(lines.slice(mark).some((l) => /^E.*\] Unable to authenticate the request err="invalid bearer token"$/.test(l)), lines.slice(mark).join('\n'));
  });
});

describe('bootstrap token authentication is off by default', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });
  it('a token Secret does not authenticate', async () => {
    await plat.admin.post(SECRETS, tokenSecret('abcdef', '0123456789abcdef'));
    const r = await plat.admin.with({ token: 'abcdef.0123456789abcdef' }).get(CSRS);
    assert.equal(r.status, 401);
  });
});
