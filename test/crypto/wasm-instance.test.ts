// The crypto core module loads, and its arena round-trips bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { put, take, wasm } from '../../core/crypto/wasm/instance.js';

describe('wasm crypto core', () => {
  it('loads once and round-trips bytes through the arena', () => {
    const w = wasm();
    assert.equal(wasm(), w);
    w.reset();
    const a = put(new Uint8Array([1, 2, 3]));
    const b = put(new Uint8Array(1000).fill(7));
    assert.ok(b >= a + 3);
    assert.deepEqual([...take(a, 3)], [1, 2, 3]);
    w.reset();
    assert.equal(put(new Uint8Array([9])), a, 'reset frees the arena');
  });
});
