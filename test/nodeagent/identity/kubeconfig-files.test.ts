// The kubeconfig TLS bootstrap writes (k8s-behaviour §5.4), read back as Kubernetes reads it: by
// plat's kubeconfig reader and by kubectl itself (YAML 1.1, where a plain `on` is a boolean and
// `0777` a number). Every string plat wrote must come back the same string.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { GO_YAML } from '../../../core/api/go-yaml.js';
import { loadKubeconfig } from '../../../core/client/kubeconfig.js';
import { bootstrapCluster, writeNodeKubeconfig } from '../../../plugins/nodeagent-identity/kubeconfig-files.js';
import { makeCa, makeClientCert } from '../../helpers/certs.js';
import { tempDir } from '../../helpers/plat.js';

// One file serves as CA bundle, client certificate and key: the loader checks each as TLS would.
const ca = makeCa({ commonName: 'kubeconfig-files-ca' });
const node = makeClientCert(ca, 'system:node:n');

// Strings a YAML 1.1 reader takes for something else when written plain (bool, int, octal, null,
// base 60, timestamp), and go-yaml v2's `0o` octal, which the yaml package's 1.1 schema does not know.
const AMBIGUOUS = ['yes', 'on', 'y', 'N', 'off', '0777', '0o17', '1_000', '0x1F', '12:30', '~', 'null', '2001-12-14', '.5'];

interface Written { dir: string; file: string; value: string }

async function write(value: string): Promise<Written> {
  const dir = tempDir('nodeagent-kubeconfig-');
  // The bootstrap file names the CA by a relative path and the TLS server name `value`, quoted.
  writeFileSync(path.join(dir, value), ca.certificatePem);
  const bootstrap = path.join(dir, 'bootstrap.conf');
  writeFileSync(bootstrap, [
    'clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443", certificate-authority: ' + JSON.stringify(value) + ', tls-server-name: ' + JSON.stringify(value) + '}}]',
    'users: [{name: u, user: {token: t}}]',
    'contexts: [{name: x, context: {cluster: c, user: u}}]',
    'current-context: x',
  ].join('\n'));
  const cluster = bootstrapCluster(bootstrap);
  const file = path.join(dir, 'nodeagent.conf');
  // A relative certificate path `value`, as clientcmd allows.
  await writeNodeKubeconfig(file, cluster, value);
  return { dir, file, value };
}

describe('the node kubeconfig', () => {
  it('writes every string so that a YAML 1.1 reader reads the same string back', async () => {
    for (const value of AMBIGUOUS) {
      const { dir, file } = await write(value);
      const doc = parseYaml(readFileSync(file, 'utf8'), GO_YAML) as { clusters: Array<{ cluster: Record<string, unknown> }>; users: Array<{ user: Record<string, unknown> }> };
      assert.equal(doc.clusters[0]!.cluster['tls-server-name'], value, value);
      assert.equal(doc.clusters[0]!.cluster['certificate-authority'], path.join(dir, value), value);
      assert.equal(doc.users[0]!.user['client-certificate'], value, value);
      assert.equal(doc.users[0]!.user['client-key'], value, value);
      writeFileSync(path.join(dir, value), node.certificatePem + node.privateKeyPem + ca.certificatePem);
      const conn = loadKubeconfig(file);
      assert.equal(conn.tlsServerName, value, value);
      assert.equal(conn.server.href, 'https://127.0.0.1:6443/');
    }
  });

  it('reads back in kubectl (client-go) with the same strings', async () => {
    for (const value of AMBIGUOUS) {
      const { dir, file } = await write(value);
      const out = execFileSync('kubectl', ['config', 'view', '--kubeconfig', file, '-o', 'json'], { env: { ...process.env, HOME: dir }, encoding: 'utf8' });
      const view = JSON.parse(out) as { clusters: Array<{ cluster: Record<string, unknown> }>; users: Array<{ user: Record<string, unknown> }> };
      assert.equal(view.clusters[0]!.cluster['tls-server-name'], value, value);
      assert.equal(view.clusters[0]!.cluster['certificate-authority'], path.join(dir, value), value);
      assert.equal(view.users[0]!.user['client-certificate'], value, value);
      assert.equal(view.users[0]!.user['client-key'], value, value);
    }
  });
});
