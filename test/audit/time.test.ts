// Audit timestamps follow the wall clock: performance.now() does not see an NTP step or drift, so
// a clock anchored once would stamp events minutes away from every other log.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { microTime, preciseNow } from '../../core/audit/time.js';

describe('audit timestamps', () => {
  for (const [name, step] of [['the wall clock stepped an hour ahead', 3_600_000], ['the wall clock stepped back 90 s', -90_000], ['no step', 0]] as const) {
    it(`stay within a millisecond of Date.now(): ${name}`, () => {
      const real = Date.now.bind(Date);
      const now = mock.method(Date, 'now', () => real() + step);
      try {
        for (let i = 0; i < 3; i++) {
          // Bracketed by the wall clock read before and after: a stall between two readings (a
          // loaded machine) must not count as the clocks parting.
          const before = Date.now();
          const t = preciseNow();
          const after = Date.now();
          assert.ok(t >= before - 1 && t <= after + 1, `${t} against ${before}..${after}`);
        }
      } finally {
        now.mock.restore();
      }
    });
  }

  it('are written with microseconds, truncated', () => {
    assert.equal(microTime(Date.UTC(2026, 11, 1, 8, 5, 12, 345) + 0.6789), '2026-12-01T08:05:12.345678Z');
  });
});
