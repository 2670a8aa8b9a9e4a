// How `plat csr list` prints the cells of the server's Table, as kubectl's tableprinter: a null
// cell is empty, a cell with a line break is cut there with "...", and ESC is written as ^[ so a
// name a requestor chose cannot drive the operator's terminal (terminal.go's WriteEscaped); the
// client-side rows of a server that prints no Table are written the same way.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';

const COLUMNS = ['Name', 'Requestor', 'Note', 'Last'].map((name) => ({ name, type: 'string', format: '', description: '', priority: 0 }));
const EVIL = 'eve\x1b]0;owned\x07\x1b[2J';

describe('plat csr list: the server\'s cells as kubectl prints them', () => {
  let server: http.Server;
  let kubeconfig: string;
  let tables = true;

  before(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (tables) {
        res.end(JSON.stringify({
          kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '5' }, columnDefinitions: COLUMNS,
          rows: [{ cells: ['c1', EVIL, null, 'x'] }, { cells: ['c2', 'bob', 'two\nlines', 7] }],
        }));
        return;
      }
      res.end(JSON.stringify({ kind: 'CertificateSigningRequestList', apiVersion: 'certificates.platform/v1', metadata: { resourceVersion: '5' }, items: [{
        apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
        metadata: { name: 'c1', resourceVersion: '4', creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
        spec: { signerName: 'example.com/x', username: EVIL, request: '', usages: [] }, status: {},
      }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { server.closeAllConnections(); server.close(); });

  const list = () => runPlatAsync(['csr', 'list', '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  it('null is empty, a line break cuts the cell, ESC is ^[', async () => {
    tables = true;
    const r = await list();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\x1b'), JSON.stringify(r.stdout));
    const lines = r.stdout.split('\n');
    assert.equal(lines.length, 4, JSON.stringify(r.stdout));
    assert.deepEqual(lines.slice(0, 3).map((l) => l.trimEnd().split(/ {2,}/)), [
      ['NAME', 'REQUESTOR', 'NOTE', 'LAST'],
      ['c1', 'eve^[]0;owned\x07^[[2J', 'x'],
      ['c2', 'bob', 'two...', '7'],
    ]);
  });

  it('a server that prints no Table: the client-side rows are escaped too', async () => {
    tables = false;
    const r = await list();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\x1b'), JSON.stringify(r.stdout));
    assert.match(r.stdout, /eve\^\[\]0;owned\x07\^\[\[2J/);
  });
});
