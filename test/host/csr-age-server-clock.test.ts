// The AGE column of `plat csr list|get` is the server's, as kubectl get's: kubectl asks for a
// meta.k8s.io Table and prints the server's cells (translateTimestampSince over the server's clock,
// duration.HumanDuration), so a client whose clock is not the server's still shows the server's
// age. The fake server's clock is fixed (years before this machine's), and each CSR is as old as
// one of HumanDuration's boundaries, so the rows must be exactly the server's.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CSR_COLUMNS, csrTablePrinter } from '../../plugins/certificates/table.js';
import type { CertificateSigningRequest } from '../../plugins/certificates/types.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';

const SERVER_NOW = Date.parse('2020-01-01T00:00:00Z');
const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;
/** Age at the server's clock, and what HumanDuration prints for it. */
const AGES: [number, string][] = [
  [0, '0s'], [119 * s, '119s'], [120 * s, '2m'], [150 * s, '2m30s'], [9 * m + 59 * s, '9m59s'], [10 * m, '10m'],
  [3 * h - s, '179m'], [3 * h, '3h'], [8 * h - s, '7h59m'], [8 * h, '8h'], [48 * h - s, '47h'], [48 * h, '2d'],
  [8 * d - s, '7d23h'], [8 * d, '8d'], [2 * y - s, '729d'], [2 * y + 3 * d, '2y3d'], [8 * y, '8y'],
];
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const csr = (i: number, age: number) => ({
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name: `c${i}`, resourceVersion: String(10 + i), creationTimestamp: rfc3339(SERVER_NOW - age) },
  spec: { signerName: 'example.com/x', username: 'alice', request: '', usages: [] }, status: {},
});
const CSRS = AGES.map(([age], i) => csr(i, age));

/** The Table the API server builds (core/server/table.ts) with the server's clock. */
const table = (objs: typeof CSRS, rv: string, columns = true) => ({
  kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: rv },
  columnDefinitions: columns ? CSR_COLUMNS : null,
  rows: objs.map((o) => ({ cells: csrTablePrinter.cells(o as unknown as CertificateSigningRequest, new Date(SERVER_NOW)), object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata } })),
});

describe('plat csr list|get: the AGE the server prints, as kubectl', () => {
  let server: http.Server;
  let kubeconfig: string;
  let watches = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const wantsTable = (req.headers.accept ?? '').includes('as=Table');
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const base = '/apis/certificates.platform/v1/certificatesigningrequests';
      if (url.pathname === base && url.searchParams.get('watch') === 'true') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // The first watch: the synthetic ADDED of a watch from "0", then a change; later ones stay open.
        if (watches++ === 0) {
          const changed = { ...CSRS[1]!, metadata: { ...CSRS[1]!.metadata, resourceVersion: '99' } };
          for (const [type, obj] of [['ADDED', CSRS[1]!], ['MODIFIED', changed]] as const) {
            res.write(`${JSON.stringify({ type, object: wantsTable ? table([obj], obj.metadata.resourceVersion, type === 'ADDED') : obj })}\n`);
          }
        }
        return;
      }
      if (url.pathname === base) return json(wantsTable ? table(CSRS, '50') : { kind: 'CertificateSigningRequestList', apiVersion: 'certificates.platform/v1', metadata: { resourceVersion: '50' }, items: CSRS });
      const one = CSRS.find((c) => url.pathname === `${base}/${c.metadata.name}`);
      if (one) return json(wantsTable ? table([one], one.metadata.resourceVersion) : one);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { server.closeAllConnections(); server.close(); });

  const plat = (...args: string[]) => runPlatAsync(['csr', ...args, '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
  const ages = (stdout: string) => stdout.trim().split('\n').slice(1).map((line) => line.split(/\s+/)[1]);

  it('plat csr list: every HumanDuration boundary, at the server\'s clock', async () => {
    const r = await plat('list');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n')[0]!.replace(/\s+/g, ' '), 'NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION');
    assert.deepEqual(ages(r.stdout), AGES.map(([, want]) => want));
  });

  it('plat csr get NAME... and get -w: the server\'s rows, the watch\'s too', async () => {
    const r = await plat('get', 'c2', 'c5');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ages(r.stdout), ['2m', '10m']);
    const w = await plat('get', 'c1', '-w', '--timeout', '2s');
    assert.equal(w.code, 0, w.stderr);
    assert.deepEqual(ages(w.stdout), ['119s', '119s']);
  });
});
