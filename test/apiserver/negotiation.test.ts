// Accept negotiation of resource responses over HTTPS, as upstream's NegotiateOutputMediaType:
// JSON, YAML (sigs.k8s.io/yaml of the JSON), 406 for a type no serializer writes, and errors in
// the negotiated type (indented JSON where negotiation fails).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseAccept } from '../../core/server/output-media-type.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const NS = '/api/v1/namespaces/default';
const MISSING = '/api/v1/namespaces/nope';
const NOT_ACCEPTABLE = '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n'
  + '  "message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",\n'
  + '  "reason": "NotAcceptable",\n  "code": 406\n}';

describe('Accept negotiation of resource responses', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const cases: { accept: string; path?: string; code: number; type: RegExp; body?: (text: string) => void }[] = [
    { accept: 'text/html', code: 406, type: /^application\/json/, body: (t) => assert.equal(t, NOT_ACCEPTABLE) },
    { accept: 'application/xml', code: 406, type: /^application\/json/, body: (t) => assert.equal(t, NOT_ACCEPTABLE) },
    { accept: 'application/yaml;stream=watch', code: 406, type: /^application\/json/ },
    { accept: 'application/json;as=Table;g=meta.k8s.io;v=v2', code: 406, type: /^application\/json/ },
    { accept: 'application/json;sv=v2', code: 406, type: /^application\/json/ },
    { accept: 'text/html, */*;q=0.8', code: 200, type: /^application\/json/ },
    { accept: '*/*', code: 200, type: /^application\/json/ },
    { accept: 'application/*', code: 200, type: /^application\/json/ },
    { accept: 'application/vnd.kubernetes.protobuf, application/json', code: 200, type: /^application\/json/ },
    { accept: 'application/json;sv=v1', code: 200, type: /^application\/json/ },
    { accept: 'application/json;stream=watch', code: 200, type: /^application\/json/ },
    {
      accept: 'application/yaml', code: 200, type: /^application\/yaml$/,
      body: (t) => assert.match(t, /^apiVersion: v1\nkind: Namespace\nmetadata:\n {2}creationTimestamp: "[^"]+"\n {2}labels:\n {4}platform\/metadata.name: default\n {2}name: default\n/),
    },
    { accept: 'text/html;q=0.9, application/yaml;q=0.5', code: 200, type: /^application\/yaml$/ },
    // Errors: in the negotiated type, else the failure's own Status as indented JSON.
    { accept: 'application/yaml', path: MISSING, code: 404, type: /^application\/yaml$/, body: (t) => assert.match(t, /^apiVersion: v1\ncode: 404\ndetails:\n {2}kind: namespaces\n {2}name: nope\nkind: Status\nmessage: namespaces "nope" not found\nmetadata: \{\}\nreason: NotFound\nstatus: Failure\n$/) },
    // The answer's type is agreed on before the object is looked up (get.go negotiates first): 406, not 404.
    { accept: 'text/html', path: MISSING, code: 406, type: /^application\/json/, body: (t) => assert.match(t, /^\{\n {2}"kind": "Status",\n[^]*"reason": "NotAcceptable"/) },
    { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', path: MISSING, code: 404, type: /^application\/json/, body: (t) => assert.match(t, /^\{\n {2}"kind": "Status",\n/) },
    { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json', path: MISSING, code: 404, type: /^application\/json/, body: (t) => assert.match(t, /^\{"kind":"Status"/) },
  ];
  for (const c of cases) {
    it(`${c.path ?? 'GET'} with Accept ${c.accept}: ${c.code}`, async () => {
      const r = await plat.admin.get(c.path ?? NS, { accept: c.accept });
      assert.equal(r.status, c.code, r.text);
      assert.match(String(r.headers['content-type']), c.type);
      c.body?.(r.text);
    });
  }

  it('a YAML list and a Table in YAML-free JSON for kubectl', async () => {
    const list = await plat.admin.get('/api/v1/namespaces', { accept: 'application/yaml' });
    assert.equal(list.status, 200);
    assert.match(list.text, /^apiVersion: v1\nitems:\n- apiVersion: v1\n {2}kind: Namespace\n/);
    const table = await plat.admin.get('/api/v1/namespaces', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' });
    assert.equal(table.json.kind, 'Table');
  });

  it('non-resource paths are not negotiated here', async () => {
    assert.equal((await plat.admin.get('/version', { accept: 'text/html' })).status, 200);
  });
});

describe('goautoneg.ParseAccept order', () => {
  const cases: [header: string, order: string[]][] = [
    ['a/b;q=0.5, c/d', ['c/d', 'a/b']],
    ['*/*, a/b', ['a/b', '*/*']],
    ['a/*, a/b', ['a/b', 'a/*']],
    // Less is not a strict order: a higher q wins over a wildcard, the earlier wildcard loses to it.
    ['a/b;q=0.1, */*', ['*/*', 'a/b']],
    ['*/*;q=0.1, a/b', ['a/b', '*/*']],
    ['a, b/c', ['b/c']],
    // Past sort.Sort's 12-element insertion sort: still ordered by q, then specificity.
    [[...Array.from({ length: 15 }, (_, i) => `x/y${i};q=0.${i % 9 + 1}`), '*/*;q=0.95', 'a/b'].join(','),
      ['a/b', '*/*', ...[8, 17, 7, 16, 6, 15, 5, 14, 4, 13, 3, 12, 2, 11, 1, 10, 0, 9].filter((i) => i < 15).map((i) => `x/y${i}`)]],
  ];
  for (const [header, order] of cases) {
    it(header, () => assert.deepEqual(parseAccept(header).map((c) => `${c.type}/${c.subType}`), order));
  }
});
