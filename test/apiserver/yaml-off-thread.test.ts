// YAML bodies past INLINE_YAML_BYTES are parsed in a worker thread (core/server/yaml-off-thread.ts):
// the answers are those of the inline parse, other requests are served while a slow body parses,
// and a request whose deadline passes ends its parse.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BodySyntaxError, parseDocument } from '../../core/server/body.js';
import { INLINE_YAML_BYTES } from '../../core/server/yaml-off-thread.js';
import { yamlDuplicateKeys } from '../../core/server/yaml-strict.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const YAML = { 'content-type': 'application/yaml' };

/** A CSR manifest in block YAML, padded past the inline limit with an annotation. */
function manifest(name: string, extra = ''): string {
  const csr = baseCsr(fixtures(), name);
  return [
    'apiVersion: certificates.platform/v1', 'kind: CertificateSigningRequest',
    'metadata:', `  name: ${name}`, '  annotations:', `    padding: "${'p'.repeat(INLINE_YAML_BYTES)}"`,
    'spec:', `  request: ${csr.spec.request}`, `  signerName: ${csr.spec.signerName}`,
    '  usages:', ...csr.spec.usages.map((u: string) => `  - ${u}`), extra,
  ].join('\n');
}

/** What the inline parse says of a body, to hold the worker's answer against. */
function inlineSyntaxError(text: string): string {
  try {
    parseDocument(Buffer.from(text), 'application/yaml');
  } catch (e) {
    if (e instanceof BodySyntaxError) return e.message;
    throw e;
  }
  assert.fail('the body parses');
}

describe('YAML bodies parsed off the event loop', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('a large body is created as a small one is', async () => {
    const r = await plat.admin.post(CSRS, manifest('big-yaml'), YAML);
    assert.equal(r.status, 201);
    assert.equal(r.json.metadata.annotations.padding.length, INLINE_YAML_BYTES);
  });

  it('a syntax error in a large body is the inline parse\'s error', async () => {
    const text = manifest('broken-yaml', 'spec: [unclosed');
    const r = await plat.admin.post(CSRS, text, YAML);
    assert.equal(r.status, 400);
    const inline = inlineSyntaxError(text);
    assert.match(inline, /^yaml: line 14: /);
    assert.ok(r.json.message.includes(`: ${inline} (`), r.json.message.slice(0, 300));
  });

  it('repeated keys in a large apply patch are found for fieldValidation as inline', async () => {
    const text = manifest('twice-yaml', 'kind: CertificateSigningRequest');
    const found = `line ${text.split('\n').length}: key "kind" already set in map`;
    assert.deepEqual(yamlDuplicateKeys(text), [found]);
    const apply = (validation: string) => plat.admin.patch(`${CSRS}/twice-yaml?fieldManager=test&fieldValidation=${validation}`, text, 'application/apply-patch+yaml');
    const strict = await apply('Strict');
    assert.equal(strict.status, 400);
    assert.ok(strict.json.message.includes(found), strict.json.message.slice(0, 300));
    const warn = await apply('Warn');
    assert.equal(warn.status, 201);
    assert.equal(warn.headers.warning, `299 - "${found.replace(/"/g, '\\"')}"`);
  });

  it('a slow body holds only its own request: /healthz is answered first', async () => {
    // ~600 KB of flow list: seconds for the yaml package, which once ran on the event loop.
    const dense = manifest('dense-yaml', `x: [${Array(300_000).fill('1').join(',')}]`);
    const order: string[] = [];
    const slow = plat.admin.post(CSRS, dense, YAML).then((r) => { order.push('yaml'); return r; });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = await plat.admin.get('/healthz');
    order.push('healthz');
    assert.equal(health.status, 200);
    assert.equal((await slow).status, 201);
    assert.deepEqual(order, ['healthz', 'yaml']);
  });

  it('a body still parsing when its deadline passes ends with the request; the next one parses', async () => {
    const dense = manifest('late-yaml', `x: [${Array(1_000_000).fill('1').join(',')}]`);
    const r = await plat.admin.post(`${CSRS}?timeout=1s`, dense, YAML);
    assert.equal(r.status, 504);
    assert.equal((await plat.admin.get(`${CSRS}/late-yaml`)).status, 404);
    const next = await plat.admin.post(CSRS, manifest('after-yaml'), YAML);
    assert.equal(next.status, 201, next.json?.message);
  });
});
