// metav1.Time's text (RFC 3339, UTC, whole seconds), which rfc3339 makes once per second: every
// date gets its own second's text whatever came before it, in any order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rfc3339 } from '../../core/api/meta.js';

const reference = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('rfc3339', () => {
  it('gives each date its own second, in order, out of order and before 1970', () => {
    const ms = [
      1_764_633_600_000, 1_764_633_600_999, 1_764_633_601_000, 1_764_633_600_500, 1_764_633_601_001,
      -1, -1_000, -1_001, -1_500, -1_999, -2_000, 0, 999, 1_000, 253_402_300_799_999, 253_402_300_800_000,
    ];
    for (const t of ms) assert.equal(rfc3339(new Date(t)), reference(new Date(t)), String(t));
    for (let i = 0; i < 2000; i++) {
      const t = Math.floor((Math.random() - 0.3) * 4e12);
      assert.equal(rfc3339(new Date(t)), reference(new Date(t)), String(t));
    }
  });

  it('throws for an invalid date, as toISOString does, also right after a valid one', () => {
    rfc3339(new Date(0));
    assert.throws(() => rfc3339(new Date(NaN)), RangeError);
    assert.equal(rfc3339(new Date(0)), '1970-01-01T00:00:00Z');
  });
});
