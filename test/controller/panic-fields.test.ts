// The fields of the `Observed a panic` line, as client-go's logPanic writes them: a thrown string
// alone as `panic`; any other value as its text and a Go-syntax-like value naming its type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { panicFields } from '../../core/go-panic-fields.js';

describe('panicFields', () => {
  it('a string: panic only, no panicGoValue', () => {
    const f = panicFields('plugin bug');
    assert.equal(f['panic'], 'plugin bug');
    assert.ok(!('panicGoValue' in f));
    assert.match(f['stacktrace']!, /^Error: caught here\n\s+at /);
  });

  it('an Error: its message, and its type with its fields', () => {
    const e = Object.assign(new TypeError('cannot read "x"'), { code: 'E_X' });
    const f = panicFields(e);
    assert.equal(f['panic'], 'cannot read "x"');
    assert.equal(f['panicGoValue'], 'TypeError{message:"cannot read \\"x\\"", code:"E_X"}');
    assert.equal(f['stacktrace'], e.stack);
  });

  it('other values: their text and their inspected value', () => {
    assert.deepEqual([panicFields(42)['panic'], panicFields(42)['panicGoValue']], ['42', '42']);
    assert.deepEqual([panicFields({ a: 1 })['panic'], panicFields({ a: 1 })['panicGoValue']], ['{ a: 1 }', '{ a: 1 }']);
    assert.equal(panicFields(undefined)['panicGoValue'], 'undefined');
  });

  it('never throws itself (it runs in the informer\'s catch): a field whose getter throws, a revoked Proxy', () => {
    const e = Object.defineProperty(new Error('bug'), 'detail', { enumerable: true, get() { throw new Error('getter'); } });
    const f = panicFields(e);
    assert.equal(f['panic'], 'bug');
    assert.equal(f['panicGoValue'], 'Error{message:"bug"}');
    assert.equal(f['stacktrace'], e.stack);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    assert.ok(typeof panicFields(proxy)['panicGoValue'] === 'string');
  });
});
