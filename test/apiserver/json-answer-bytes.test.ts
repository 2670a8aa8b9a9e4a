// The bytes of JSON answers as apimachinery's serializer writes them: compact JSON is json.Encoder's
// line, ending with exactly one newline; pretty JSON is json.MarshalIndent's, with none; and both
// carry encoding/json's HTML-safe escapes (< > & U+2028 U+2029 as \u003c \u003e \u0026 \u2028
// \u2029), in objects, lists, Tables, Status errors, discovery and watch events alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { goJsonMarshalText, goJsonText as goText } from '../helpers/go-json-text.js';
import { startInProcess, type Response, type RunningPlat } from '../helpers/plat.js';

const NAME = 'json-bytes';
const VALUE = 'a<b>&c\u2028d\u2029e';
/** VALUE as Go writes it inside a JSON string. */
const GO_VALUE = 'a\\u003cb\\u003e\\u0026c\\u2028d\\u2029e';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const AGG_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface Case { name: string; path: string; accept?: string; status?: number; escaped?: string }

const cases: Case[] = [
  { name: 'an object', path: `/api/v1/namespaces/${NAME}`, escaped: `"note":"${GO_VALUE}"` },
  { name: 'a list', path: `/api/v1/namespaces?fieldSelector=metadata.name%3D${NAME}`, escaped: `"note":"${GO_VALUE}"` },
  { name: 'a Table', path: `/api/v1/namespaces/${NAME}?includeObject=Object`, accept: TABLE, escaped: `"note":"${GO_VALUE}"` },
  { name: 'a Status error', path: '/api/v1/namespaces/default/secrets/a&b', status: 404, escaped: '"secrets \\"a\\u0026b\\" not found"' },
  { name: 'legacy discovery /api', path: '/api' },
  { name: 'legacy discovery /apis', path: '/apis' },
  { name: 'a group version\'s resources', path: '/api/v1' },
  { name: 'aggregated discovery', path: '/apis', accept: AGG_V2 },
];

describe('JSON answer bytes: json.Encoder\'s newline and HTML-safe escapes', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const created = await plat.admin.post('/api/v1/namespaces', { metadata: { name: NAME, annotations: { note: VALUE } } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => { await plat?.stop(); });

  const check = (r: Response, c: Case, pretty: boolean) => {
    assert.equal(r.status, c.status ?? 200, r.text);
    assert.notEqual(r.json, undefined, r.text);
    assert.equal(r.text, goText(r.json, pretty));
    assert.equal(r.headers['content-length'], String(r.raw.length));
    if (c.escaped) assert.ok(r.text.includes(pretty ? c.escaped.replace('":"', '": "') : c.escaped), r.text);
  };

  for (const c of cases) {
    it(`${c.name}, compact: one trailing newline`, async () => {
      const r = await plat.admin.get(c.path, c.accept ? { accept: c.accept } : {});
      check(r, c, false);
      assert.ok(r.text.endsWith('}\n') && !r.text.endsWith('\n\n'), JSON.stringify(r.text.slice(-3)));
    });
    it(`${c.name}, pretty: no trailing newline`, async () => {
      const r = await plat.admin.get(`${c.path}${c.path.includes('?') ? '&' : '?'}pretty=1`, c.accept ? { accept: c.accept } : {});
      check(r, c, true);
      assert.ok(r.text.endsWith('}'), JSON.stringify(r.text.slice(-3)));
    });
  }

  it('a create answers as a get does', async () => {
    const r = await plat.admin.post('/api/v1/namespaces', { metadata: { name: `${NAME}-2`, labels: { a: 'b' }, annotations: { note: VALUE } } });
    check(r, { name: 'create', path: '', status: 201, escaped: `"note":"${GO_VALUE}"` }, false);
  });

  it('the OpenAPI documents: kube-openapi\'s json.Marshal bytes, escaped, without a newline', async () => {
    const index = await plat.admin.get('/openapi/v3');
    assert.equal(index.text, goJsonMarshalText(index.json));
    const urls = Object.values(index.json.paths as Record<string, { serverRelativeURL: string }>).map((p) => p.serverRelativeURL);
    assert.ok(urls.length > 1, index.text);
    for (const url of urls) {
      const r = await plat.admin.get(url);
      assert.equal(r.status, 200, url);
      assert.equal(r.text, goJsonMarshalText(r.json), url);
    }
    // The core group's schema descriptions hold '<' and '>'.
    const core = await plat.admin.get(urls.find((u) => u.startsWith('/openapi/v3/api/v1?'))!);
    assert.match(core.text, /\\u003c/);
  });

  it('watch events: each the Encoder\'s escaped line', async () => {
    const r = await plat.admin.get(`/api/v1/namespaces?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3D${NAME}`);
    assert.equal(r.status, 200, r.text);
    const lines = r.text.split(/(?<=\n)/);
    assert.equal(lines.length, 1, r.text);
    assert.equal(lines[0], goText(JSON.parse(lines[0]!), false));
    assert.ok(lines[0]!.includes(`"note":"${GO_VALUE}"`), lines[0]);
  });
});
