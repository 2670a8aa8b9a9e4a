import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import { AnonymousAuthenticator, FILE_AND_FLAG_EXCLUSIVE } from '../../plugins/authn-anonymous/index.js';
import { OidcAuthenticator } from '../../plugins/authn-oidc/index.js';
import type { Host } from '../../core/host.js';
import { boot, request } from './support.js';

/** The file also gives the JWT authenticator taps (as upstream, even without `jwt` entries). */
const anonymousTaps = (host: Host) => host.hooks.authenticate.taps.filter((t) => t.name === 'AnonymousAuthenticator').length;

describe('AnonymousAuthenticator', () => {
  it('is on by default and authenticates requests nobody claimed', async () => {
    const { host, flags } = boot([AnonymousAuthenticator]);
    assert.equal(flags.get('anonymous-auth'), true);
    assert.deepEqual(await host.hooks.authenticate.promise(request()), { name: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('taps nothing with --anonymous-auth=false', async () => {
    const { host } = boot([AnonymousAuthenticator], ['--anonymous-auth=false']);
    assert.equal(host.hooks.authenticate.taps.length, 0);
    assert.equal(await host.hooks.authenticate.promise(request()), undefined);
  });

  it('runs last, whatever the order in which plugins tapped', async () => {
    const { host } = boot([AnonymousAuthenticator]);
    host.hooks.authenticate.tap('LateTokenAuthenticator', () => ({ name: 'tok', groups: [] }));
    assert.equal((await host.hooks.authenticate.promise(request()))?.name, 'tok');
  });

  it('does not authenticate a request another authenticator rejected', async () => {
    const { host } = boot([AnonymousAuthenticator]);
    host.hooks.authenticate.tap('RejectingAuthenticator', (req) => { req.reject('invalid bearer token'); return undefined; });
    const req = request({ headers: { authorization: 'Bearer bad' } });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.deepEqual(req.reasons, ['invalid bearer token']);
  });
});

describe('AnonymousAuthenticator with an --authentication-config anonymous section', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plat-anonymous-'));
  const file = (body: string) => {
    const f = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(f, `apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\n${body}`);
    return f;
  };
  const at = (path: string) => ({ ...request(), path });

  it('allows anonymous requests only on the listed paths (exact match)', async () => {
    const { host } = boot([OidcAuthenticator, AnonymousAuthenticator], ['--authentication-config', file('anonymous:\n  enabled: true\n  conditions: [{path: /livez}, {path: /readyz}]\n')]);
    assert.equal((await host.hooks.authenticate.promise(at('/livez')))?.name, 'system:anonymous');
    assert.equal((await host.hooks.authenticate.promise(at('/readyz')))?.name, 'system:anonymous');
    for (const p of ['/livez/', '/livez/ping', '/healthz', '/apis']) assert.equal(await host.hooks.authenticate.promise(at(p)), undefined, p);
  });

  it('enabled without conditions allows every path; enabled false taps nothing, whatever the flag default', async () => {
    const on = boot([OidcAuthenticator, AnonymousAuthenticator], ['--authentication-config', file('anonymous: {enabled: true}\n')]);
    assert.equal((await on.host.hooks.authenticate.promise(at('/anything')))?.name, 'system:anonymous');
    const off = boot([OidcAuthenticator, AnonymousAuthenticator], ['--authentication-config', file('anonymous: {enabled: false}\n')]);
    assert.equal(anonymousTaps(off.host), 0);
  });

  it('leaves --anonymous-auth in charge when the file has no anonymous section', async () => {
    const { host } = boot([OidcAuthenticator, AnonymousAuthenticator], ['--authentication-config', file('jwt: []\n'), '--anonymous-auth=false']);
    assert.equal(anonymousTaps(host), 0);
  });

  it('refuses the section together with an explicit --anonymous-auth, and conditions while disabled', () => {
    assert.throws(() => boot([OidcAuthenticator, AnonymousAuthenticator], ['--authentication-config', file('anonymous: {enabled: true}\n'), '--anonymous-auth']),
      (e: unknown) => e instanceof StartupError && e.message === FILE_AND_FLAG_EXCLUSIVE);
    assert.throws(() => boot([AnonymousAuthenticator, OidcAuthenticator], ['--authentication-config', file('anonymous:\n  enabled: false\n  conditions: [{path: /livez}]\n')]),
      (e: unknown) => e instanceof StartupError && /anonymous\.conditions: Invalid value: \[\{"path":"\/livez"\}\]: enabled should be set to true when conditions are defined$/.test(e.message));
  });
});
