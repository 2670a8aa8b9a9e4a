import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../core/api/patch/json-patch.js';
import { StatusError } from '../../core/api/errors.js';

/**
 * Asserts a StatusError with this code and (optionally) exact text: the library's words, which a
 * 422 carries as its cause (the answer's message is upstream's fixed one).
 */
function assertStatus(fn: () => unknown, code: number, message?: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${String(e)}`);
    assert.equal(e.code, code);
    const text = code === 422 ? String(e.cause) : e.status.message ?? '';
    if (typeof message === 'string') assert.equal(text, message);
    else if (message) assert.match(text, message);
    return true;
  });
}

// RFC 6902 Appendix A. A.13 (duplicate "op" member) is a property of the JSON text, which
// JSON.parse has already resolved (last member wins) before a patch reaches us.
const appendixA: Array<{ id: string; doc: unknown; patch: unknown; want?: unknown; error?: boolean }> = [
  { id: 'A.1', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz', value: 'qux' }], want: { baz: 'qux', foo: 'bar' } },
  { id: 'A.2', doc: { foo: ['bar', 'baz'] }, patch: [{ op: 'add', path: '/foo/1', value: 'qux' }], want: { foo: ['bar', 'qux', 'baz'] } },
  { id: 'A.3', doc: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'remove', path: '/baz' }], want: { foo: 'bar' } },
  { id: 'A.4', doc: { foo: ['bar', 'qux', 'baz'] }, patch: [{ op: 'remove', path: '/foo/1' }], want: { foo: ['bar', 'baz'] } },
  { id: 'A.5', doc: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'replace', path: '/baz', value: 'boo' }], want: { baz: 'boo', foo: 'bar' } },
  {
    id: 'A.6',
    doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    want: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  {
    id: 'A.7', doc: { foo: ['all', 'grass', 'cows', 'eat'] },
    patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }], want: { foo: ['all', 'cows', 'eat', 'grass'] },
  },
  {
    id: 'A.8', doc: { baz: 'qux', foo: ['a', 2, 'c'] },
    patch: [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }],
    want: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  { id: 'A.9', doc: { baz: 'qux' }, patch: [{ op: 'test', path: '/baz', value: 'bar' }], error: true },
  {
    id: 'A.10', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }],
    want: { foo: 'bar', child: { grandchild: {} } },
  },
  { id: 'A.11', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], want: { foo: 'bar', baz: 'qux' } },
  { id: 'A.12', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz/bat', value: 'qux' }], error: true },
  { id: 'A.14', doc: { '/': 9, '~1': 10 }, patch: [{ op: 'test', path: '/~01', value: 10 }], want: { '/': 9, '~1': 10 } },
  { id: 'A.15', doc: { '/': 9, '~1': 10 }, patch: [{ op: 'test', path: '/~01', value: '10' }], error: true },
  { id: 'A.16', doc: { foo: ['bar'] }, patch: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], want: { foo: ['bar', ['abc', 'def']] } },
];

describe('applyJsonPatch: RFC 6902 Appendix A', () => {
  for (const v of appendixA) {
    it(v.id, () => {
      if (v.error) assertStatus(() => applyJsonPatch(v.doc, v.patch), 422);
      else assert.deepEqual(applyJsonPatch(v.doc, v.patch), v.want);
    });
  }
});

describe('applyJsonPatch: more operations', () => {
  const cases: Array<{ name: string; doc: unknown; patch: unknown; want: unknown }> = [
    { name: 'copy deep-copies', doc: { a: { b: [1] } }, patch: [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/b/-', value: 2 }], want: { a: { b: [1] }, c: { b: [1, 2] } } },
    { name: 'pointer escapes ~0 ~1', doc: { 'a/b': { 'c~d': 1 } }, patch: [{ op: 'replace', path: '/a~1b/c~0d', value: 2 }], want: { 'a/b': { 'c~d': 2 } } },
    { name: 'add replaces an existing member', doc: { a: 1 }, patch: [{ op: 'add', path: '/a', value: 2 }], want: { a: 2 } },
    { name: 'add at end index', doc: { a: [1] }, patch: [{ op: 'add', path: '/a/1', value: 2 }], want: { a: [1, 2] } },
    { name: 'negative index counts from the end (upstream)', doc: { a: [1, 2, 3] }, patch: [{ op: 'remove', path: '/a/-1' }], want: { a: [1, 2] } },
    { name: 'missing value means null (upstream)', doc: {}, patch: [{ op: 'add', path: '/a' }], want: { a: null } },
    { name: 'null patch is empty', doc: { a: 1 }, patch: null, want: { a: 1 } },
    { name: 'test deep equality ignores key order', doc: { a: { x: 1, y: [1, { z: 2 }] } }, patch: [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }], want: { a: { x: 1, y: [1, { z: 2 }] } } },
    { name: 'move to the same place is a no-op', doc: { a: 1 }, patch: [{ op: 'move', from: '/a', path: '/a' }], want: { a: 1 } },
    { name: 'labels with slashes (kubectl style)', doc: { metadata: { labels: {} } }, patch: [{ op: 'add', path: '/metadata/labels/example.com~1team', value: 'x' }], want: { metadata: { labels: { 'example.com/team': 'x' } } } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(applyJsonPatch(c.doc, c.patch), c.want));

  it('a __proto__ member is data, not a prototype', () => {
    const out = applyJsonPatch({}, JSON.parse('[{"op":"add","path":"/__proto__","value":{"polluted":true}}]')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ['__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});

describe('applyJsonPatch: errors', () => {
  const cases: Array<{ name: string; doc: unknown; patch: unknown; code: number; message: string }> = [
    { name: 'patch not a list', doc: {}, patch: { op: 'add' }, code: 400, message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
    { name: 'operation not an object', doc: {}, patch: ['add'], code: 400, message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
    { name: 'op missing', doc: {}, patch: [{ path: '/a', value: 1 }], code: 422, message: 'Unexpected kind: unknown' },
    { name: 'unknown op', doc: {}, patch: [{ op: 'frob', path: '/a' }], code: 422, message: 'Unexpected kind: frob' },
    { name: 'add: path missing', doc: {}, patch: [{ op: 'add', value: 1 }], code: 422, message: 'add operation failed to decode path: missing value' },
    { name: 'add: parent missing', doc: { spec: {} }, patch: [{ op: 'add', path: '/spec/foo/bar', value: 1 }], code: 422, message: 'add operation does not apply: doc is missing path: "/spec/foo/bar": missing value' },
    { name: 'add: index out of range', doc: { a: [] }, patch: [{ op: 'add', path: '/a/5', value: 1 }], code: 422, message: "error in add for path: '/a/5': Unable to access invalid index: 5: invalid index referenced" },
    { name: 'add: bad index', doc: { a: [] }, patch: [{ op: 'add', path: '/a/x', value: 1 }], code: 422, message: `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax` },
    { name: 'remove: missing member', doc: { a: {} }, patch: [{ op: 'remove', path: '/a/b' }], code: 422, message: "error in remove for path: '/a/b': Unable to remove nonexistent key: b: missing value" },
    { name: 'remove: index out of range', doc: { a: [1] }, patch: [{ op: 'remove', path: '/a/1' }], code: 422, message: "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced" },
    { name: 'replace: missing member (RFC)', doc: { a: {} }, patch: [{ op: 'replace', path: '/a/b', value: 1 }], code: 422, message: 'replace operation does not apply: doc is missing key: /a/b: missing value' },
    { name: 'replace: missing parent', doc: {}, patch: [{ op: 'replace', path: '/a/b', value: 1 }], code: 422, message: 'replace operation does not apply: doc is missing path: /a/b: missing value' },
    { name: 'move: from missing', doc: {}, patch: [{ op: 'move', path: '/b' }], code: 422, message: 'move operation failed to decode from: operation, missing from field: missing value' },
    { name: 'move: into its own child', doc: { a: { b: 1 } }, patch: [{ op: 'move', from: '/a', path: '/a/c' }], code: 422, message: 'move operation does not apply: doc is missing destination path: /a/c: missing value' },
    { name: 'test: failed', doc: { a: 1 }, patch: [{ op: 'test', path: '/a', value: 2 }], code: 422, message: 'testing value /a failed: test failed' },
    { name: 'test: absent member', doc: { a: {} }, patch: [{ op: 'test', path: '/a/b', value: null }], code: 422, message: 'testing value /a/b failed: test failed' },
    { name: 'copy: from missing member', doc: { a: {} }, patch: [{ op: 'copy', from: '/a/x', path: '/b' }], code: 422, message: "error in copy for from: '/a/x': Unable to get nonexistent key: x: missing value" },
    { name: 'root pointer names no location (upstream)', doc: {}, patch: [{ op: 'replace', path: '', value: {} }], code: 422, message: 'replace operation does not apply: doc is missing path: : missing value' },
  ];
  for (const c of cases) it(c.name, () => assertStatus(() => applyJsonPatch(c.doc, c.patch), c.code, c.message));

  it('422 carries reason Invalid', () => {
    try {
      applyJsonPatch({}, [{ op: 'remove', path: '/x' }]);
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof StatusError);
      // NewGenericServerResponse(422, ...): the library's text is not on the wire.
      assert.deepEqual(e.status, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
      });
    }
  });

  it(`more than ${MAX_JSON_PATCH_OPERATIONS} operations is 413, before anything applies`, () => {
    const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/nope', value: 1 }));
    assertStatus(() => applyJsonPatch({}, ops), 413, `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${MAX_JSON_PATCH_OPERATIONS + 1}`);
    const okOps = Array.from({ length: MAX_JSON_PATCH_OPERATIONS }, () => ({ op: 'test', path: '/a', value: 1 }));
    assert.deepEqual(applyJsonPatch({ a: 1 }, okOps), { a: 1 });
  });

  it('self-doubling copies are bounded', () => {
    // Each copy appends the list to itself, doubling it: 40 of them would need 2^40 times the input.
    const ops = Array.from({ length: 40 }, () => ({ op: 'copy', from: '/a', path: '/a/-' }));
    assertStatus(() => applyJsonPatch({ a: ['x'.repeat(100)] }, ops), 422, /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
  });
});

describe('applyJsonPatch: immutability', () => {
  it('leaves the document and the patch untouched, and shares nothing with them', () => {
    const doc = { a: { b: [1, 2] }, c: 'x' };
    const value = { deep: [1] };
    const patch = [
      { op: 'add', path: '/a/b/-', value: 3 },
      { op: 'remove', path: '/c' },
      { op: 'add', path: '/v', value },
      { op: 'move', from: '/a/b/0', path: '/m' },
    ];
    const docCopy = structuredClone(doc);
    const patchCopy = structuredClone(patch);
    const out = applyJsonPatch(doc, patch) as { v: { deep: number[] }; a: { b: number[] } };
    assert.deepEqual(doc, docCopy);
    assert.deepEqual(patch, patchCopy);
    assert.deepEqual(out, { a: { b: [2, 3] }, v: { deep: [1] }, m: 1 });
    out.v.deep.push(9);
    assert.deepEqual(value, { deep: [1] });
    assert.notEqual(out.a, doc.a);
  });

  it('a failing patch leaves the document untouched', () => {
    const doc = { a: [1, 2] };
    assert.throws(() => applyJsonPatch(doc, [{ op: 'remove', path: '/a/0' }, { op: 'test', path: '/a/0', value: 7 }]));
    assert.deepEqual(doc, { a: [1, 2] });
  });
});
