// A bootstrap kubeconfig that impersonates (its user's `as`): the CSRs go with its credentials and
// impersonation (certConfig, as upstream's loadRESTClientConfig reads it), while the node's own
// client is rest.AnonymousClientConfig of it: the server and how to trust it, no credentials and
// no impersonation, so the node's certificate speaks for the node alone.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../core/log.js';
import { loadClientConfig } from '../../../plugins/nodeagent-identity/client-config.js';
import { tempDir } from '../../helpers/plat.js';

describe('node agent client config from a bootstrap kubeconfig that impersonates', () => {
  it('certConfig impersonates, clientConfig (anonymous) does not', async () => {
    const dir = tempDir('plat-agent-bootstrap-as-');
    const bootstrap = path.join(dir, 'bootstrap.conf');
    writeFileSync(bootstrap, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: abcdef.0123456789abcdef, as: "system:bootstrap:abcdef", as-groups: [system:bootstrappers]}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    const { certConfig, clientConfig, bootstrapping } = await loadClientConfig(path.join(dir, 'nodeagent.conf'), bootstrap,
      path.join(dir, 'pki', 'nodeagent-client-current.pem'), silentLogger, new Date());
    assert.equal(bootstrapping, true);
    assert.deepEqual(certConfig.impersonate, { user: 'system:bootstrap:abcdef', uid: '', groups: ['system:bootstrappers'], extra: {} });
    assert.equal(certConfig.token, 'abcdef.0123456789abcdef');
    assert.equal(clientConfig.token, undefined);
    assert.equal(clientConfig.impersonate, undefined);
  });
});
