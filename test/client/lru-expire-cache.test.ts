// The bounded, expiring cache the review and webhook answer caches share.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReviewCache } from '../../core/client/review-cache.js';
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

  it('expires on the monotonic clock by default, whatever the wall clock does (caches of review answers)', async () => {
    // The wall clock is stubbed before the caches exist, so a default that captured Date.now reads it too.
    const realNow = Date.now;
    let step = 0;
    Date.now = () => realNow() + step;
    try {
      const c = new LruExpireCache<string>(4);
      const answers = new ReviewCache<string>(() => 30);
      c.set('revoked', 'allowed', 30);
      assert.equal(await answers.get('k', async () => 'first'), 'first');
      step = -3_600_000; // stepped back an hour
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(c.get('revoked'), undefined, 'gone after its TTL, not an hour later');
      assert.equal(await answers.get('k', async () => 'asked again'), 'asked again');
      c.set('fresh', 'x', 10_000);
      step = 3_600_000; // and forward an hour
      assert.equal(c.get('fresh'), 'x', 'not expired early');
    } finally {
      Date.now = realNow;
    }
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
