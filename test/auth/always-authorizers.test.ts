import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes } from '../../core/authz/attributes.js';
import { authorize } from '../../core/authz/authorize.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from '../../plugins/authz-always/index.js';
import { AuthorizationModeFlag, boot } from './support.js';

const attributes: Attributes = {
  user: { name: 'alice', groups: ['system:authenticated'] },
  verb: 'create', isResourceRequest: true, path: '/apis/certificates.platform/v1/certificatesigningrequests',
  apiGroup: 'certificates.platform', apiVersion: 'v1', resource: 'certificatesigningrequests', subresource: '',
  namespace: '', name: '',
};

const plugins = [AuthorizationModeFlag, AlwaysAllowAuthorizer, AlwaysDenyAuthorizer];
const decide = (modes: string) => authorize(boot(plugins, [`--authorization-mode=${modes}`]).host, attributes);

describe('AlwaysAllowAuthorizer and AlwaysDenyAuthorizer', () => {
  it('provide their mode names even when not enabled', () => {
    const { host } = boot(plugins, ['--authorization-mode=RBAC']);
    assert.equal(host.capabilities.has('authorization-mode', 'AlwaysAllow'), true);
    assert.equal(host.capabilities.has('authorization-mode', 'AlwaysDeny'), true);
    assert.equal(host.hooks.authorize.taps.length, 0);
  });

  it('AlwaysAllow allows (the flag default)', async () => {
    assert.deepEqual(await authorize(boot(plugins).host, attributes), { decision: 'allow' });
  });

  it('AlwaysDeny denies with upstream\'s reason', async () => {
    assert.deepEqual(await decide('AlwaysDeny'), { decision: 'deny', reason: 'Everything is forbidden.' });
  });

  it('run in flag order, whatever the order in which the plugins were applied', async () => {
    assert.equal((await decide('AlwaysDeny,AlwaysAllow'))?.decision, 'deny');
    assert.equal((await decide('AlwaysAllow,AlwaysDeny'))?.decision, 'allow');
    const reversed = boot([AuthorizationModeFlag, AlwaysDenyAuthorizer, AlwaysAllowAuthorizer], ['--authorization-mode=AlwaysAllow,AlwaysDeny']);
    assert.equal((await authorize(reversed.host, attributes))?.decision, 'allow');
  });

  it('tap at the stage of their position among other modes', () => {
    const { host } = boot(plugins, ['--authorization-mode=RBAC,AlwaysDeny,Node,AlwaysAllow']);
    assert.deepEqual(host.hooks.authorize.taps.map((t) => [t.name, t.stage]), [['AlwaysDenyAuthorizer', 1], ['AlwaysAllowAuthorizer', 3]]);
  });
});
