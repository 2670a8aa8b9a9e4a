import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuantity, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR } from '../../core/flags/quantity.js';

test('parseQuantity: binary, decimal, milli and exponent forms', () => {
  const cases: Array<[string, number]> = [
    ['0', 0],
    ['1', 1],
    ['100Mi', 100 * 2 ** 20],
    ['1Ki', 1024],
    ['1.5Ki', 1536],
    ['1Gi', 2 ** 30],
    ['1Ti', 2 ** 40],
    ['1Pi', 2 ** 50],
    ['1Ei', 2 ** 60],
    ['1k', 1000],
    ['1M', 1e6],
    ['1G', 1e9],
    ['2T', 2e12],
    ['1P', 1e15],
    ['1E', 1e18],
    ['500m', 0.5],
    ['100u', 0.0001],
    ['5n', 5e-9],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1e-2', 0.01],
    ['0.1k', 100],
    ['.5', 0.5],
    ['5.', 5],
    ['+1k', 1000],
    ['-1k', -1000],
    ['-0', 0],
  ];
  for (const [s, want] of cases) assert.equal(parseQuantity(s), want, s);
});

test('parseQuantity errors are apimachinery texts', () => {
  for (const s of ['', 'abc', '1x', '1Kb', ' 1', '1 ', '1..2', 'Mi']) {
    assert.throws(() => parseQuantity(s), { message: QUANTITY_FORMAT_ERROR }, JSON.stringify(s));
  }
  for (const s of ['1K', '1kk', '1Mii', '1e', '1iK']) {
    assert.throws(() => parseQuantity(s), { message: QUANTITY_SUFFIX_ERROR }, s);
  }
});
