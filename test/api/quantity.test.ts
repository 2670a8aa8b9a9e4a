// resource.Quantity as apimachinery parses, rounds and prints it (cases from quantity_test.go's
// canonical-form tables): the form a Node's capacity is stored and read back in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalQuantity, formatQuantity, milliQuantityOf, parseQuantity, QUANTITY_FORMAT_WRONG, QUANTITY_SUFFIX_WRONG,
  quantityOf, subtractQuantity,
} from '../../core/api/quantity.js';

describe('resource.Quantity', () => {
  const canonical: Array<[string, string]> = [
    ['0', '0'], ['0n', '0'], ['-0', '0'], ['+1', '1'], ['-1', '-1'],
    ['1000', '1k'], ['1000000', '1M'], ['1000m', '1'], ['2000m', '2'], ['1500m', '1500m'], ['1.5', '1500m'], ['0.5', '500m'], ['.5', '500m'],
    ['1024', '1024'], ['12345', '12345'], ['25276502016', '25276502016'],
    ['1Ki', '1Ki'], ['1024Ki', '1Mi'], ['1536Ki', '1536Ki'], ['1.5Gi', '1536Mi'], ['0.5Ki', '512'], ['100Mi', '100Mi'], ['1023Ki', '1023Ki'],
    ['1e3', '1e3'], ['12e2', '1200'], ['1e-3', '1e-3'], ['1E', '1E'], ['1000E', '1e21'],
    ['0.1n', '1n'], ['-0.1n', '-1n'], ['1.0001m', '1000100n'], ['100u', '100u'], ['1.G', '1G'],
    ['9Ei', '9223372036854775807'],
  ];
  for (const [input, want] of canonical) {
    it(`${JSON.stringify(input)} is ${JSON.stringify(want)}`, () => assert.equal(canonicalQuantity(input), want));
  }

  const malformed: Array<[string, string]> = [
    ['', QUANTITY_FORMAT_WRONG], ['1.1.1', QUANTITY_FORMAT_WRONG], ['1Q', QUANTITY_FORMAT_WRONG], ['abc', QUANTITY_FORMAT_WRONG], [' 1', QUANTITY_FORMAT_WRONG],
    ['1Kii', QUANTITY_SUFFIX_WRONG], ['1e', QUANTITY_SUFFIX_WRONG], ['1ki', QUANTITY_SUFFIX_WRONG],
  ];
  for (const [input, message] of malformed) {
    it(`refuses ${JSON.stringify(input)}`, () => assert.throws(() => parseQuantity(input), { message }));
  }

  it('prints new quantities in their format, as NewQuantity and NewMilliQuantity do', () => {
    assert.equal(formatQuantity(quantityOf(25276502016, 'BinarySI')), '24684084Ki');
    assert.equal(formatQuantity(quantityOf(110, 'DecimalSI')), '110');
    assert.equal(formatQuantity(milliQuantityOf(2000, 'DecimalSI')), '2');
    assert.equal(formatQuantity(quantityOf(512, 'BinarySI')), '512');
  });

  it('subtracts exactly and keeps the first format', () => {
    const left = subtractQuantity(quantityOf(25276502016, 'BinarySI'), parseQuantity('100Mi'));
    assert.equal(formatQuantity(left), '24581684Ki');
    assert.equal(formatQuantity(subtractQuantity(parseQuantity('1'), parseQuantity('1500m'))), '-500m');
  });
});
