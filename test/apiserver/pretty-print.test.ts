// Indented JSON over real HTTPS, as upstream's NegotiateOutputMediaType chooses the pretty
// serializer: the pretty query value read with strconv.ParseBool, else a curl, Wget or browser
// User-Agent, or the chosen Accept clause's pretty=1; for objects, lists, Tables, Status errors
// and discovery alike, never for watch events. Pretty is json.MarshalIndent's: two spaces, no
// trailing newline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, startInProcess, type RunningPlat } from '../helpers/plat.js';

const NS = '/api/v1/namespaces/default';
const CURL = 'curl/8.5.0';
const KUBECTL = 'kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const AGG_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface Case { name: string; path: string; ua?: string; accept?: string; pretty: boolean; status?: number }

const cases: Case[] = [
  // The query value, as strconv.ParseBool reads it; one it refuses is false.
  ...['true', '1', 't', 'T', 'TRUE', 'True', '%31'].map((v) => ({ name: `?pretty=${v}`, path: `${NS}?pretty=${v}`, pretty: true })),
  ...['false', '0', 'f', 'F', 'FALSE', 'yes', 'TrUe', '+1'].map((v) => ({ name: `?pretty=${v}`, path: `${NS}?pretty=${v}`, pretty: false })),
  // url.Values.Get: a pair with ';' or a malformed escape is dropped, the first value that parsed wins;
  // an escaped key is not seen, upstream looks for the text "pretty" first.
  { name: 'a pair with a semicolon is dropped', path: `${NS}?pretty=1;x=y`, pretty: false },
  { name: 'a malformed escape drops its pair only', path: `${NS}?pretty=%zz&pretty=1`, pretty: true },
  { name: 'the first value wins', path: `${NS}?pretty=0&pretty=1`, pretty: false },
  { name: 'an escaped key', path: `${NS}?pr%65tty=1`, pretty: false },
  // Without a query value, the User-Agent.
  { name: 'curl', path: NS, ua: CURL, pretty: true },
  { name: 'Wget', path: NS, ua: 'Wget/1.21.4', pretty: true },
  { name: 'a browser', path: NS, ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', pretty: true },
  { name: 'kubectl', path: NS, ua: KUBECTL, pretty: false },
  { name: 'an old browser', path: NS, ua: 'Mozilla/4.0 (compatible)', pretty: false },
  { name: 'curl not at the start', path: NS, ua: 'not-curl/1.0', pretty: false },
  { name: 'curl with ?pretty=false', path: `${NS}?pretty=false`, ua: CURL, pretty: false },
  { name: 'curl with ?pretty=0', path: `${NS}?pretty=0`, ua: CURL, pretty: false },
  { name: 'curl with an unparsable ?pretty', path: `${NS}?pretty=nope`, ua: CURL, pretty: false },
  { name: 'curl with an empty ?pretty', path: `${NS}?pretty=`, ua: CURL, pretty: true },
  { name: 'curl with a dropped ?pretty pair', path: `${NS}?pretty=0;x`, ua: CURL, pretty: true },
  // The Accept clause chosen: pretty=1 only, combined with the query by "or".
  { name: 'Accept pretty=1', path: NS, accept: 'application/json;pretty=1', pretty: true },
  { name: 'Accept pretty=true', path: NS, accept: 'application/json;pretty=true', pretty: false },
  { name: 'Accept pretty=1 with ?pretty=false', path: `${NS}?pretty=false`, accept: 'application/json; pretty=1', pretty: true },
  { name: 'Accept pretty=1 on a clause not chosen', path: NS, accept: 'text/html;pretty=1, application/json', pretty: false },
  { name: 'a protobuf clause (no pretty serializer)', path: NS, ua: CURL, accept: 'application/vnd.kubernetes.protobuf;pretty=1', pretty: false },
  // Every kind of answer.
  { name: 'a list for curl', path: '/api/v1/namespaces', ua: CURL, pretty: true },
  { name: 'a Table for curl', path: '/api/v1/namespaces', ua: CURL, accept: TABLE, pretty: true },
  { name: 'a Table with pretty=1 in its clause', path: '/api/v1/namespaces', accept: `${TABLE};pretty=1`, pretty: true },
  { name: 'a Status error for curl', path: '/api/v1/namespaces/nope', ua: CURL, pretty: true, status: 404 },
  { name: 'a Status error for kubectl', path: '/api/v1/namespaces/nope', ua: KUBECTL, pretty: false, status: 404 },
  { name: 'legacy discovery /api for curl', path: '/api', ua: CURL, pretty: true },
  { name: 'legacy discovery /apis with ?pretty=1', path: '/apis?pretty=1', pretty: true },
  { name: 'a group version\'s resources with Accept pretty=1', path: '/api/v1', accept: 'application/json;pretty=1', pretty: true },
  { name: 'aggregated discovery for curl', path: '/apis', ua: CURL, accept: AGG_V2, pretty: true },
  { name: 'aggregated discovery with pretty=1 in its clause', path: '/api', accept: `${AGG_V2};pretty=1`, pretty: true },
  { name: 'aggregated discovery for kubectl', path: '/apis', ua: KUBECTL, accept: `${AGG_V2},application/json`, pretty: false },
];

const indented = (r: { text: string; json: unknown }) => JSON.stringify(r.json, null, 2);
// json.Encoder's line: a newline ends it.
const compact = (r: { text: string; json: unknown }) => `${JSON.stringify(r.json)}\n`;

describe('pretty-printed JSON answers', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  for (const c of cases) {
    it(`${c.name}: ${c.pretty ? 'indented' : 'compact'}`, async () => {
      const r = await plat.admin.get(c.path, { ...(c.ua ? { 'user-agent': c.ua } : {}), ...(c.accept ? { accept: c.accept } : {}) });
      assert.equal(r.status, c.status ?? 200, r.text);
      assert.notEqual(r.json, undefined, r.text);
      assert.equal(r.text, c.pretty ? indented(r) : compact(r));
    });
  }

  it('a create for curl, and a 401 Status on a resource and on a discovery path', async () => {
    const created = await plat.admin.post('/api/v1/namespaces', { metadata: { name: 'pretty-create' } }, { 'user-agent': CURL });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.text, indented(created));
    const anonymous = new Client(plat.url, { ca: plat.admin.creds.ca });
    for (const p of ['/api/v1/namespaces', '/api']) {
      const r = await anonymous.get(p, { 'user-agent': CURL });
      assert.equal(r.status, 401, p);
      assert.equal(r.text, indented(r), p);
    }
  });

  it('watch events stay one compact line each for curl', async () => {
    const r = await plat.admin.get('/api/v1/namespaces?watch=1&timeoutSeconds=1&pretty=1', { 'user-agent': CURL });
    assert.equal(r.status, 200);
    const lines = r.text.split('\n').filter((l) => l !== '');
    assert.ok(lines.length > 0, r.text);
    for (const line of lines) assert.equal(line, JSON.stringify(JSON.parse(line)));
  });
});
