// Kubeconfig files as clientcmd loads them: what it refuses (in its words, and Go's), what it takes
// (files with no data), and what it leaves out (credentials for a server without TLS).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { loadKubeconfig, loadKubeconfigs } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { makeCa, makeClientCert } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const ca = makeCa({ commonName: 'kubeconfig-test-ca' });
const alice = makeClientCert(ca, 'alice');
const bob = makeClientCert(ca, 'bob');
const SERVER = 'server: "https://127.0.0.1:1"';
const withUser = (user: string, cluster = SERVER) =>
  `clusters: [{name: c, cluster: {${cluster}}}]\nusers: [{name: u, user: {${user}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`;

const REFUSED: [string, string, string][] = [
  // Decoding (latest.Codec, encoding/json, the v1 conversion).
  ['a kind that is no Config', 'kind: Pod\napiVersion: v1\n',
    'no kind "Pod" is registered for version "v1" in scheme "k8s.io/client-go/tools/clientcmd/api/latest/latest.go:50"'],
  ['an unknown version', 'apiVersion: v9\nclusters: []\n',
    'no kind "Config" is registered for version "v9" in scheme "k8s.io/client-go/tools/clientcmd/api/latest/latest.go:50"'],
  ['a scalar document', 'just text\n',
    'couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
  ['a number for a name', 'clusters: [{name: 5, cluster: {server: "https://a"}}]\n',
    'json: cannot unmarshal number into Go struct field NamedCluster.clusters.name of type string'],
  ['a number for a server', 'clusters: [{name: c, cluster: {server: 5}}]\n',
    'json: cannot unmarshal number into Go struct field Cluster.clusters.cluster.server of type string'],
  ['a quoted boolean', 'clusters: [{name: c, cluster: {server: "https://a", insecure-skip-tls-verify: "true"}}]\n',
    'json: cannot unmarshal string into Go struct field Cluster.clusters.cluster.insecure-skip-tls-verify of type bool'],
  // `yes` is YAML 1.1's true, as sigs.k8s.io/yaml reads it.
  ['a boolean among as-groups', 'users: [{name: u, user: {as-groups: [a, yes]}}]\n',
    'json: cannot unmarshal bool into Go struct field AuthInfo.users.user.as-groups of type string'],
  ['a number among an extra\'s values', 'users: [{name: u, user: {as-user-extra: {k: [a, 5]}}}]\n',
    'json: cannot unmarshal number into Go struct field AuthInfo.users.user.as-user-extra of type string'],
  ['clusters that are no list', 'clusters: {a: 1}\n',
    'json: cannot unmarshal object into Go struct field Config.clusters of type []v1.NamedCluster'],
  ['base64 that is not strict', 'clusters: [{name: c, cluster: {server: "https://a", certificate-authority-data: "abc"}}]\n',
    'illegal base64 data at input byte 0'],
  ['a name twice in a list', 'clusters: [{name: c, cluster: {server: "https://a"}}, {name: c, cluster: {server: "https://b", certificate-authority-data: "AQI="}}]\n',
    'error converting *[]NamedCluster into *map[string]*api.Cluster: duplicate name "c" in list: [{c {https://a  false  []  false []}} {c {https://b  false  [1 2]  false []}}]'],
  ['a user twice', 'users: [{name: u, user: {token: a}}, {name: u, user: {}}]\n',
    'error converting *[]NamedAuthInfo into *map[string]*api.AuthInfo: duplicate name "u" in list: [{u { []  [] a    [] map[]   <nil> <nil> []}} {u { []  []     [] map[]   <nil> <nil> []}}]'],
];

test('files clientcmd cannot decode are refused in its words, naming the file', () => {
  const dir = tempDir();
  for (const [name, text, message] of REFUSED) {
    const file = path.join(dir, 'k.conf');
    writeFileSync(file, text);
    assert.throws(() => loadKubeconfig(file), { message: `error loading config file "${file}": ${message}` }, name);
  }
});

test('an empty or comment-only file in a list is an empty config; a bad one is named', () => {
  const dir = tempDir();
  const empty = path.join(dir, 'empty.conf');
  const comments = path.join(dir, 'comments.conf');
  const real = path.join(dir, 'real.conf');
  const broken = path.join(dir, 'broken.conf');
  writeFileSync(empty, '');
  writeFileSync(comments, '# nothing here yet\n\n');
  writeFileSync(real, 'clusters: [{name: c, cluster: {server: "https://127.0.0.1:7"}}]\n');
  writeFileSync(broken, 'clusters: [\n');
  assert.equal(loadKubeconfigs([empty, comments, real]).server.href, 'https://127.0.0.1:7/');
  assert.throws(() => loadKubeconfigs([real, broken]), (e: Error) => e.message.startsWith(`error loading config file "${broken}": yaml: line `));
});

const INVALID: [string, string, string][] = [
  ['CA file and data', `${SERVER}, certificate-authority: ca.crt, certificate-authority-data: ${b64(ca.certificatePem)}`,
    'certificate-authority-data and certificate-authority are both specified for c. certificate-authority-data will override.'],
  ['no server', 'tls-server-name: x', 'no server found for cluster "c"'],
];

test('validation.go\'s texts, every problem at once', () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'ca.crt'), ca.certificatePem);
  const file = path.join(dir, 'k.conf');
  for (const [name, cluster, message] of INVALID) {
    writeFileSync(file, `clusters: [{name: c, cluster: {${cluster}}}]\n`);
    assert.throws(() => loadKubeconfig(file), { message: `invalid configuration: ${message}` }, name);
  }
  writeFileSync(file, withUser(`client-certificate-data: ${b64(alice.certificatePem)}`, 'tls-server-name: x'));
  assert.throws(() => loadKubeconfig(file), {
    message: 'invalid configuration: [client-key-data or client-key must be specified for u to use the clientCert authentication method., no server found for cluster "c"]',
  });
});

const TLS_REFUSED: [string, string, string][] = [
  ['a CA that is no PEM', `${SERVER}, certificate-authority-data: ${b64('not a certificate\n')}`, 'unable to load root certificates: unable to parse bytes as PEM block'],
  ['a CA bundle holding only a key', `${SERVER}, certificate-authority-data: ${b64(alice.privateKeyPem)}`, 'unable to load root certificates: no valid certificate authority data seen'],
];

test('a CA, client certificate or key that TLS cannot use fails at load, in client-go\'s and crypto/tls\'s words', () => {
  const dir = tempDir();
  const file = path.join(dir, 'k.conf');
  for (const [name, cluster, message] of TLS_REFUSED) {
    writeFileSync(file, `clusters: [{name: c, cluster: {${cluster}}}]\n`);
    assert.throws(() => loadKubeconfig(file), { message }, name);
  }
  const pairs: [string, string, string, string][] = [
    ['another key', alice.certificatePem, bob.privateKeyPem, 'tls: private key does not match public key'],
    ['a certificate that is no PEM', 'garbage', alice.privateKeyPem, 'tls: failed to find any PEM data in certificate input'],
    ['a key that is no PEM', alice.certificatePem, 'garbage', 'tls: failed to find any PEM data in key input'],
  ];
  for (const [name, cert, key, message] of pairs) {
    writeFileSync(file, withUser(`client-certificate-data: ${b64(cert)}, client-key-data: ${b64(key)}`));
    assert.throws(() => loadKubeconfig(file), { message }, name);
  }
});

test('a server without TLS gets no credentials, as client-go reads them only for TLS', async () => {
  const seen: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const dir = tempDir();
    const file = path.join(dir, 'k.conf');
    const cluster = `server: "http://127.0.0.1:${(server.address() as AddressInfo).port}"`;
    writeFileSync(file, withUser(`token: secret-t, client-certificate-data: ${b64(alice.certificatePem)}, client-key-data: ${b64(alice.privateKeyPem)}`, cluster));
    const conn = loadKubeconfig(file);
    assert.deepEqual([conn.token, conn.clientCert, conn.clientKey], [undefined, undefined, undefined]);
    const client = new RestClient(conn);
    try {
      await client.request('GET', '/api');
    } finally {
      client.close();
    }
    assert.deepEqual(seen, [undefined], 'no Authorization header crossed the plain connection');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
