// What a kubeconfig user's exec, tokenFile, basic auth and auth-provider fields make of the loaded
// connection, and the problems clientcmd and client-go's transport find in them, in their words
// (checked against kubectl v1.32.4 on the same files: kubectl prints `error: <text>`, plat keeps its
// `invalid configuration: ` shape for validation.go's problems).
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { KubeconfigError, loadKubeconfig, loadKubeconfigs } from '../../core/client/kubeconfig.js';
import { tempDir } from '../helpers/plat.js';

const dir = tempDir('plat-kubeconfig-auth-');
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'tok'), 'file-token\n');
writeFileSync(path.join(dir, 'empty'), '');

const EXEC = 'exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin, interactiveMode: Never}';

function write(name: string, user: string, server = 'https://127.0.0.1:6443'): string {
  const file = path.join(dir, name);
  writeFileSync(file, `clusters: [{name: c, cluster: {server: "${server}", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {${user}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
  return file;
}

describe('kubeconfig users beyond certificates and tokens', () => {
  it('refuses what clientcmd and client-go refuse, in their words', () => {
    const cases: [string, string][] = [
      ['exec: {command: ./p}', 'invalid configuration: [apiVersion must be specified for u to use exec authentication plugin, interactiveMode must be specified for u to use exec authentication plugin]'],
      ['exec: {apiVersion: client.authentication.k8s.io/v1, command: ./p}', 'invalid configuration: interactiveMode must be specified for u to use exec authentication plugin'],
      ['exec: {apiVersion: client.authentication.k8s.io/v1, command: ./p, interactiveMode: Sometimes}', 'invalid configuration: invalid interactiveMode for u: "Sometimes"'],
      ['exec: {apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}', 'invalid configuration: command must be specified for u to use exec authentication plugin'],
      ['exec: {apiVersion: client.authentication.k8s.io/v1, command: ./p, interactiveMode: Never, env: [{value: x}]}', 'invalid configuration: env variable name must be specified for u to use exec authentication plugin'],
      [`${EXEC}, auth-provider: {name: gcp}`, 'invalid configuration: authProvider cannot be provided in combination with an exec plugin for u'],
      ['token: t, username: a', 'invalid configuration: more than one authentication method found for u; found [token basicAuth], only one is allowed'],
      ['exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: ./p, interactiveMode: Never}', 'exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1"'],
      // Checked when the authenticator is made, even when a token means it is not used.
      ['token: t, exec: {apiVersion: client.authentication.k8s.io/v9, command: ./p, interactiveMode: Never}', 'exec plugin: invalid apiVersion "client.authentication.k8s.io/v9"'],
      ['username: a, tokenFile: tok', 'username/password or bearer token may be set, but not both'],
      ['tokenFile: missing', `open ${path.join(dir, 'missing')}: no such file or directory`],
      ['tokenFile: empty', `read empty token from file ${JSON.stringify(path.join(dir, 'empty'))}`],
      ['auth-provider: {name: gcp}', 'The gcp auth plugin has been removed.\nPlease use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.\nSee https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details'],
      ['token: t, auth-provider: {name: azure}', 'The azure auth plugin has been removed.\nPlease use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead.\nSee https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details'],
      ['auth-provider: {name: foo}', 'no Auth Provider found for name "foo"'],
      ['auth-provider: {name: oidc, config: {id-token: x}}', 'the oidc auth-provider of user "u" is not supported by plat: use an exec credential plugin instead (such as kubelogin: `kubectl oidc-login get-token`)'],
    ];
    cases.forEach(([user, message], i) => {
      const file = write(`bad-${i}.conf`, user);
      assert.throws(() => loadKubeconfig(file), (e: unknown) => {
        assert.ok(e instanceof KubeconfigError, String(e));
        assert.equal(e.message, message, user);
        return true;
      });
    });
  });

  it('chooses the credential client-go would send', async () => {
    const credential = async (user: string) => {
      const c = loadKubeconfig(write('ok.conf', user));
      return { token: c.token, sent: (await c.credentials?.get())?.authorization };
    };
    // The exec plugin steps aside for a token (it is not even run: ./plugin does not exist).
    assert.deepEqual(await credential(`token: t, ${EXEC}`), { token: 't', sent: undefined });
    assert.deepEqual(await credential('username: a, password: b'), { token: undefined, sent: `Basic ${Buffer.from('a:b').toString('base64')}` });
    // The file, relative to the kubeconfig, wins over the token while it can be read.
    assert.deepEqual(await credential('tokenFile: tok, token: t'), { token: undefined, sent: 'Bearer file-token' });
    assert.deepEqual(await credential('tokenFile: empty, token: t'), { token: undefined, sent: 'Bearer t' });
    // v1beta1 defaults interactiveMode to IfAvailable.
    assert.ok(loadKubeconfig(write('beta.conf', 'exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: p}')).credentials);
    // Credentials are read only for a TLS server: none of this is looked at for plain HTTP.
    const plain = loadKubeconfig(write('http.conf', 'auth-provider: {name: gcp}, tokenFile: missing', 'http://127.0.0.1:8080'));
    assert.equal(plain.credentials, undefined);
  });

  it('says kubectl\'s words for a --cluster that is not there', () => {
    assert.throws(() => loadKubeconfigs([write('c.conf', 'token: t')], { cluster: 'zz' }), { message: 'no server found for cluster "zz"' });
  });
});
