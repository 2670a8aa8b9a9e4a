import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { boot, request } from './support.js';

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
