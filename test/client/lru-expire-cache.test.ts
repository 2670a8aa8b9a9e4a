// The bounded, expiring cache the review and webhook answer caches share.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruExpireCache } from '../../core/lru-expire-cache.js';

describe('LruExpireCache', () => {
  it('forgets an entry at its own expiry, not before', () => {
    let now = 1000;
    const c = new LruExpireCache<string>(4, () => now);
    c.set('short', 'a', 10);
    c.set('long', 'b', 100);
    now = 1009;
    assert.equal(c.get('short'), 'a');
    now = 1010;
    assert.equal(c.get('short'), undefined);
    assert.equal(c.get('long'), 'b');
    assert.equal(c.size, 1, 'an expired entry is dropped when read');
  });

  it('drops the least recently used entry when full; a read counts as a use', () => {
    const c = new LruExpireCache<number>(2, () => 0);
    c.set('a', 1, 60);
    c.set('b', 2, 60);
    assert.equal(c.get('a'), 1);
    c.set('c', 3, 60);
    assert.equal(c.get('b'), undefined);
    assert.equal(c.get('a'), 1);
    assert.equal(c.get('c'), 3);
  });

  it('a set of a present key replaces it without evicting another', () => {
    const c = new LruExpireCache<number>(2, () => 0);
    c.set('a', 1, 60);
    c.set('b', 2, 60);
    c.set('a', 10, 60);
    assert.equal(c.size, 2);
    assert.equal(c.get('a'), 10);
    assert.equal(c.get('b'), 2);
  });

  it('refuses a size that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LruExpireCache(bad), RangeError);
  });
});
