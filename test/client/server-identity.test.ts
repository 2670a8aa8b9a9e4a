// A server certificate's names are checked as Go's clients check them (x509 VerifyHostname: IP
// hosts against IP SANs, names against DNS SANs, never the Common Name) and a mismatch is said in
// crypto/x509's HostnameError words. Node alone would trust a certificate whose Common Name is the
// host when it has no DNS SAN, which kubectl refuses. Each row: a real TLS server on 127.0.0.1 with
// that certificate, `plat csr list` and kubectl given the same kubeconfig.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeCert, type LeafOptions } from '../helpers/certs.js';
import { Kubectl } from '../helpers/kubectl.js';
import { tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const ca = makeCa({ commonName: 'identity-ca' });

const rows: Array<{ name: string; cert: LeafOptions; serverName?: string; want: string }> = [
  {
    name: 'a name the DNS SANs lack', cert: { commonName: 'localhost', dnsNames: ['localhost', 'vm'], ipAddresses: ['127.0.0.1'] },
    serverName: 'wrong.example', want: 'x509: certificate is valid for localhost, vm, not wrong.example',
  },
  {
    name: 'an IP host, no IP SANs', cert: { commonName: 'localhost', dnsNames: ['localhost'] },
    want: "x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs",
  },
  {
    name: 'an IP host the IP SANs lack (IPv6 written as Go writes it)', cert: { commonName: 'x', ipAddresses: ['10.0.0.1', '::1'] },
    want: 'x509: certificate is valid for 10.0.0.1, ::1, not 127.0.0.1',
  },
  {
    name: 'only the Common Name, no SANs', cert: { commonName: 'legacy.example' },
    serverName: 'legacy.example', want: 'x509: certificate relies on legacy Common Name field, use SANs instead',
  },
  {
    name: 'the Common Name and IP SANs only', cert: { commonName: 'legacy.example', ipAddresses: ['127.0.0.1'] },
    serverName: 'legacy.example', want: 'x509: certificate is not valid for any names, but wanted to match legacy.example',
  },
];

describe("server certificate names, checked as Go's clients check them", () => {
  const dir = tempDir();
  const servers: https.Server[] = [];
  const kubeconfigs = new Map<string, string>();
  before(async () => {
    for (const [i, row] of rows.entries()) {
      const leaf = makeCert(ca, { ...row.cert, extKeyUsage: ['server auth'] });
      const server = https.createServer({ cert: leaf.certificatePem, key: leaf.privateKeyPem }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      servers.push(server);
      const file = path.join(dir, `k${i}.yaml`);
      writeFileSync(file, [
        'apiVersion: v1', 'kind: Config',
        'clusters:', '- name: c', '  cluster:', `    server: https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        `    certificate-authority-data: ${Buffer.from(ca.certificatePem).toString('base64')}`,
        ...(row.serverName ? [`    tls-server-name: ${row.serverName}`] : []),
        'users:', '- name: u', '  user: {token: t}',
        'contexts:', '- name: c', '  context: {cluster: c, user: u}', 'current-context: c', '',
      ].join('\n'));
      kubeconfigs.set(row.name, file);
    }
  });
  after(() => { for (const s of servers) { s.closeAllConnections(); s.close(); } });

  for (const row of rows) {
    it(`${row.name}: ${row.want}`, async () => {
      const file = kubeconfigs.get(row.name)!;
      const plat = await runPlatAsync(['csr', 'list', '--kubeconfig', file]);
      assert.deepEqual([plat.code, plat.stderr.trim()], [1, `plat csr list: Unable to connect to the server: tls: failed to verify certificate: ${row.want}`]);
      const kubectl = await new Kubectl(file).run(['get', '--raw', '/version']);
      assert.equal(kubectl.code, 1, kubectl.stdout);
      assert.ok(kubectl.stderr.includes(`tls: failed to verify certificate: ${row.want}`), kubectl.stderr);
    });
  }
});
