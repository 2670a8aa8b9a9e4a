// How deep a YAML body may nest: as deep as go-yaml's scanner (10,000 flow levels, 10,000 indents)
// and then encoding/json (10,000 levels of the converted JSON) read, with their errors beyond.
// The yaml package recurses per level, so deep bodies parse in the worker with a large stack and
// come back flat (structured clone would recurse on the event loop's smaller stack).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonDepthError, yamlDepthError } from '../../core/api/go-yaml-depth.js';
import { depthOf, flatten, unflatten } from '../../core/server/flat-value.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const SECRETS = '/api/v1/namespaces/default/secrets?fieldValidation=Ignore';
const YAML = { 'content-type': 'application/yaml' };
const head = (name: string) => `apiVersion: v1\nkind: Secret\nmetadata: {name: ${name}}\n`;
/** `extra` nested `levels` deep as flow lists on line 4. */
const flow = (name: string, levels: number) => `${head(name)}extra: ${'['.repeat(levels)}${']'.repeat(levels)}\n`;
/** `extra` nested `levels` deep as a compact block sequence on line 5. */
const block = (name: string, levels: number) => `${head(name)}extra:\n  ${'- '.repeat(levels)}x\n`;

describe('YAML nesting limits', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers='] }); });
  after(async () => { await plat?.stop(); });

  // The document's own mapping is one indent and one JSON level; `extra` adds its levels.
  const table: { name: string; body: string; error?: string }[] = [
    { name: 'flow-small', body: flow('flow-small', 600) },
    { name: 'flow-deep', body: flow('flow-deep', 9999) },
    { name: 'flow-json-limit', body: flow('flow-json-limit', 10000), error: "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth" },
    { name: 'flow-yaml-limit', body: flow('flow-yaml-limit', 10001), error: 'yaml: line 4: exceeded max depth of 10000' },
    { name: 'flow-far-beyond', body: flow('flow-far-beyond', 1_000_000), error: 'yaml: line 4: exceeded max depth of 10000' },
    { name: 'block-small', body: block('block-small', 600) },
    { name: 'block-deep', body: block('block-deep', 9999) },
    { name: 'block-yaml-limit', body: block('block-yaml-limit', 10000), error: 'yaml: line 5: exceeded max depth of 10000' },
    { name: 'block-far-beyond', body: block('block-far-beyond', 1_000_000), error: 'yaml: line 5: exceeded max depth of 10000' },
  ];
  for (const { name, body, error } of table) {
    it(`${name}: ${error ?? 'created'}`, async () => {
      const r = await plat.admin.post(SECRETS, body, YAML);
      if (!error) {
        assert.equal(r.status, 201, r.text.slice(0, 300));
        assert.equal(r.json.metadata.name, name);
        return;
      }
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.ok(r.json.message.startsWith(`the object provided is unrecognized (must be of type Secret): ${error} (`), r.json.message.slice(0, 300));
      assert.equal((await plat.admin.get(`/api/v1/namespaces/default/secrets/${name}`)).status, 404);
    });
  }

  it('the server still answers at once after the deepest bodies', async () => {
    assert.equal((await plat.admin.get('/healthz')).status, 200);
  });
});

describe('yamlDepthError', () => {
  const deep = '['.repeat(20000);
  const table: [string, string, string | undefined][] = [
    ['flow at the limit', `a: ${'['.repeat(10000)}${']'.repeat(10000)}`, undefined],
    ['flow past it, line 1 (go-yaml prints no line 1)', `${'['.repeat(10001)}`, 'yaml: exceeded max depth of 10000'],
    ['flow past it on line 3', `x: 1\ny: 2\nz: ${'{a: '.repeat(10001)}`, 'yaml: line 3: exceeded max depth of 10000'],
    ['brackets in double quotes', `a: "${deep}"`, undefined],
    ['brackets in single quotes', `a: '${deep}'`, undefined],
    ['brackets in a comment', `a: 1 # ${deep}`, undefined],
    ['brackets in a block scalar', `a: |\n  ${deep}\nb: 1`, undefined],
    ['indents at the limit', `${'- '.repeat(10000)}x`, undefined],
    ['indents past it', `\n\n${'- '.repeat(10001)}x`, 'yaml: line 3: exceeded max depth of 10000'],
    ['mapping indents that unroll', Array.from({ length: 20000 }, (_, i) => `k${i}:\n  v: [1, {a: b}]`).join('\n'), undefined],
    ['sequences of mappings', Array.from({ length: 20000 }, (_, i) => `- a: ${i}\n  b:\n  - c`).join('\n'), undefined],
  ];
  for (const [what, text, want] of table) it(what, () => assert.equal(yamlDepthError(text), want));
});

describe('jsonDepthError and the flat encoding', () => {
  const nested = (n: number, leaf: unknown = 1): unknown => { let v = leaf; for (let i = 0; i < n; i++) v = i % 2 ? { k: v } : [v]; return v; };

  it('refuses the first container past 10,000 levels, as encoding/json does', () => {
    assert.equal(jsonDepthError(nested(10000)), undefined);
    assert.equal(jsonDepthError(nested(10001)), "invalid character '[' exceeded max depth");
    assert.equal(jsonDepthError({ a: nested(9999, {}) }), "invalid character '{' exceeded max depth");
  });

  it('round-trips what structured clone keeps, at any depth', () => {
    const value = { a: [1, -0, Infinity, NaN, null, true, 'x', [], {}], ['__proto__']: { b: 2 }, deep: nested(30000, 'leaf') };
    Object.defineProperty(value, '__proto__', { value: { b: 2 }, enumerable: true });
    const back = unflatten(flatten(value)) as typeof value;
    assert.deepEqual(back.a, value.a);
    assert.ok(Object.is(back.a[1], -0));
    assert.ok(Object.hasOwn(back, '__proto__'));
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.equal(depthOf(back.deep, Infinity), 30000);
    assert.equal(unflatten(flatten('scalar')), 'scalar');
    assert.deepEqual(unflatten(flatten([])), []);
  });
});
