import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch, assertMergePatchBody } from '../../core/api/patch/merge-patch.js';
import { StatusError } from '../../core/api/errors.js';

// RFC 7386 Appendix A, row by row.
const appendixA: Array<[original: unknown, patch: unknown, result: unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('applyMergePatch: RFC 7386 Appendix A', () => {
  appendixA.forEach(([original, patch, result], i) => {
    it(`row ${i + 1}: ${JSON.stringify(original)} + ${JSON.stringify(patch)}`, () => {
      assert.deepEqual(applyMergePatch(original, patch), result);
    });
  });

  it('the RFC section 3 example', () => {
    const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    assert.deepEqual(applyMergePatch(target, patch), {
      title: 'Hello!', author: { givenName: 'John' }, tags: ['example'], content: 'This will be unchanged', phoneNumber: '+01-123-456-7890',
    });
  });
});

describe('applyMergePatch: safety', () => {
  it('leaves inputs untouched and unshared', () => {
    const doc = { a: { b: 1, c: [1] }, d: 2 };
    const patch = { a: { b: null, e: { f: [1] } }, d: null };
    const docCopy = structuredClone(doc);
    const patchCopy = structuredClone(patch);
    const out = applyMergePatch(doc, patch) as { a: { c: number[]; e: { f: number[] } } };
    assert.deepEqual(out, { a: { c: [1], e: { f: [1] } } });
    assert.deepEqual(doc, docCopy);
    assert.deepEqual(patch, patchCopy);
    out.a.c.push(2);
    out.a.e.f.push(2);
    assert.deepEqual(doc, docCopy);
    assert.deepEqual(patch, patchCopy);
  });

  it('a __proto__ member is data', () => {
    const out = applyMergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as object;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ['__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});

describe('assertMergePatchBody', () => {
  for (const body of [null, 'x', 1, true]) {
    it(`rejects ${JSON.stringify(body)} with 400 Invalid JSON Patch`, () => {
      assert.throws(() => assertMergePatchBody(body), (e: unknown) =>
        e instanceof StatusError && e.code === 400 && e.status.message === 'Invalid JSON Patch');
    });
  }
  it('accepts objects and leaves arrays to decoding', () => {
    assertMergePatchBody({});
    assertMergePatchBody([]);
  });
});
