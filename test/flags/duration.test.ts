import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration, parseDurationNanos } from '../../core/flags/duration.js';

const H = 3_600_000;

test('parseDuration accepts Go syntax and returns milliseconds', () => {
  const cases: Array<[string, number]> = [
    ['0', 0],
    ['+0', 0],
    ['-0', 0],
    ['0s', 0],
    ['30s', 30_000],
    ['500ms', 500],
    ['1h0m0s', H],
    ['1h30m', 1.5 * H],
    ['1.5h', 1.5 * H],
    ['-1m', -60_000],
    ['+5s', 5_000],
    ['.5s', 500],
    ['5.s', 5_000],
    ['1m30s', 90_000],
    ['8760h0m0s', 8760 * H],
    ['1500us', 1.5],
    ['1µs', 0.001],
    ['1μs', 0.001],
    ['100ns', 0.0001],
    ['2h45m0.5s', 2 * H + 45 * 60_000 + 500],
    ['1.0001s', 1000.1],
  ];
  for (const [s, want] of cases) assert.equal(parseDuration(s), want, s);
});

test('parseDuration errors read like Go', () => {
  const cases: Array<[string, string]> = [
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['.', 'time: invalid duration "."'],
    ['-', 'time: invalid duration "-"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['1h5', 'time: missing unit in duration "1h5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['1 s', 'time: unknown unit " s" in duration "1 s"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
  ];
  for (const [s, msg] of cases) assert.throws(() => parseDuration(s), { message: msg }, s);
});

test('parseDurationNanos keeps whole nanoseconds beyond double precision', () => {
  assert.equal(parseDurationNanos('2562047h47m16.854775807s'), (1n << 63n) - 1n);
  assert.throws(() => parseDurationNanos('2562047h47m16.854775808s'), /invalid duration/);
});

test('formatDuration matches Go Duration.String()', () => {
  const cases: Array<[number, string]> = [
    [0, '0s'],
    [0.000001, '1ns'],
    [0.0015, '1.5µs'],
    [0.5, '500µs'],
    [1.5, '1.5ms'],
    [500, '500ms'],
    [1500, '1.5s'],
    [2000, '2s'],
    [30_000, '30s'],
    [60_000, '1m0s'],
    [90_000, '1m30s'],
    [300_000, '5m0s'],
    [H, '1h0m0s'],
    [8760 * H, '8760h0m0s'],
    [2 * H + 45 * 60_000 + 500, '2h45m0.5s'],
    [-60_000, '-1m0s'],
    [-0.5, '-500µs'],
  ];
  for (const [ms, want] of cases) assert.equal(formatDuration(ms), want, String(ms));
});

test('formatDuration and parseDuration round-trip', () => {
  for (const s of ['1h0m0s', '5m0s', '1m30s', '1.5s', '500ms', '2h45m0.5s', '-3m7s']) {
    assert.equal(formatDuration(parseDuration(s)), s);
  }
  assert.throws(() => formatDuration(Infinity), RangeError);
});
