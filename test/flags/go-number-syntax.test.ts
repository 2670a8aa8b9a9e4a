// Int and float flag values as Go's strconv (base 0 for ints) reads them through pflag: every
// row is what a Kubernetes component answers for `--flag=<text>`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, Flags } from '../../core/flags/flag-set.js';

function flags(): Flags {
  const f = new Flags();
  f.define({ name: 'n', type: 'int', help: 'An int.', section: 's' });
  f.define({ name: 'x', type: 'float', help: 'A float64.', section: 's' });
  f.define({ name: 'y', type: 'float32', help: 'A float32.', section: 's' });
  f.define({ name: 'u', type: 'uint64', help: 'A uint64.', section: 's' });
  return f;
}

const SYNTAX = 'invalid syntax';
const RANGE = 'value out of range';

// [text, value or the strconv error's reason]
const INTS: Array<[string, number | string]> = [
  ['1_000', 1000], ['+1_000', 1000], ['-1_000_000', -1000000], ['0x_ff', 255], ['0XFF', 255], ['0xf_f', 255],
  ['0b1_0', 2], ['0o1_7', 15], ['0_17', 15], ['017', 15], ['0o17', 15], ['0', 0], ['-0', 0], ['00', 0],
  ['2147483647', 2147483647], ['-2147483648', -2147483648], ['-0x8000_0000', -2147483648],
  ['1__0', SYNTAX], ['_1', SYNTAX], ['1_', SYNTAX], ['+_1', SYNTAX], ['0x_', SYNTAX], ['0_', SYNTAX], ['0x1_', SYNTAX],
  ['0x', SYNTAX], ['0b', SYNTAX], ['0b2', SYNTAX], ['08', SYNTAX], ['0_8', SYNTAX], ['1.5', SYNTAX], ['1e3', SYNTAX],
  ['', SYNTAX], ['-', SYNTAX], ['+', SYNTAX], [' 1', SYNTAX], ['--1', SYNTAX], ['1 000', SYNTAX],
  ['2147483648', RANGE], ['2_147_483_648', RANGE], ['-2147483649', RANGE], ['0x1_0000_0000', RANGE],
  // ParseUint stops at the first overflow: what follows is never looked at.
  ['99999999999x', RANGE], ['4294967296_', RANGE],
  ['4294967295_', SYNTAX], ['12x', SYNTAX],
];

const FLOATS: Array<[string, number | string]> = [
  ['1_000.5', 1000.5], ['1_0e1_0', 1e11], ['.5', 0.5], ['5.', 5], ['+1.5', 1.5], ['-0', -0], ['010', 10], ['0_1.5', 1.5],
  ['0x1p-2', 0.25], ['0x1.8p1', 3], ['0X_1P+4', 16], ['-0x1p0', -1], ['0x.8p1', 1], ['0x1p-1074', 5e-324], ['0x1p-1075', 0],
  ['0x1.8p-1075', 5e-324], ['0x1fffffffffffffp0', 2 ** 53 - 1], ['0x20000000000001p0', 2 ** 53], ['0x20000000000003p0', 2 ** 53 + 4],
  ['inf', Infinity], ['-Infinity', -Infinity], ['+INF', Infinity], ['NaN', NaN], ['1e-400', 0],
  ['1__0', SYNTAX], ['_1', SYNTAX], ['1_', SYNTAX], ['1_.5', SYNTAX], ['1._5', SYNTAX], ['1e_1', SYNTAX], ['1e1_', SYNTAX],
  ['0x1', SYNTAX], ['0x1.8', SYNTAX], ['0x', SYNTAX], ['0b1', SYNTAX], ['0o7', SYNTAX], ['1e', SYNTAX], ['1e+', SYNTAX],
  ['.', SYNTAX], ['', SYNTAX], ['+nan', SYNTAX], ['infinit', SYNTAX], ['1.5.', SYNTAX], ['0x1_p0', SYNTAX], ['1p2', SYNTAX],
  ['1e309', RANGE], ['-1e309', RANGE], ['0x1p1024', RANGE], ['1e400x', SYNTAX],
];

function check(flag: string, fn: string, table: Array<[string, number | string]>, label: string): void {
  for (const [text, want] of table) {
    const f = flags();
    if (typeof want === 'number') {
      f.parse([`--${flag}=${text}`]);
      assert.ok(Object.is(f.get(flag), want), `${label} ${JSON.stringify(text)}: got ${String(f.get(flag))}, want ${want}`);
    } else {
      assert.throws(() => f.parse([`--${flag}=${text}`]), (err: unknown) => {
        assert.ok(err instanceof FlagError, `${label} ${JSON.stringify(text)}: ${String(err)}`);
        assert.equal(err.message, `invalid argument ${JSON.stringify(text)} for "--${flag}" flag: strconv.${fn}: parsing ${JSON.stringify(text)}: ${want}`);
        return true;
      }, `${label} ${JSON.stringify(text)} should be refused`);
    }
  }
}

test('int flags read their value as strconv.ParseInt(s, 0, 32): base prefixes, `_` only between digits', () => {
  check('n', 'ParseInt', INTS, 'int');
});

test('float flags read their value as strconv.ParseFloat: `_` between digits, hexadecimal mantissas with a p exponent', () => {
  check('x', 'ParseFloat', FLOATS, 'float64');
});

test('float32 flags take the same forms', () => {
  check('y', 'ParseFloat', [['1_000.5', 1000.5], ['0x1p-2', 0.25], ['1__0', SYNTAX], ['0x1p128', RANGE]], 'float32');
});

test('uint64 flags read their value as strconv.ParseUint(s, 0, 64), and refuse what a number cannot hold exactly', () => {
  check('u', 'ParseUint', [['5000000000', 5e9], ['0x1_0000_0000', 2 ** 32], ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['-1', SYNTAX], ['+1', SYNTAX], ['1_', SYNTAX], ['18446744073709551616', RANGE]], 'uint64');
  const f = flags();
  assert.throws(() => f.parse(['--u=18446744073709551615']), {
    message: 'invalid argument "18446744073709551615" for "--u" flag: parsing "18446744073709551615": above 9007199254740991, the largest integer plat holds exactly',
  });
});

test('the config file gives int texts the command line syntax', () => {
  const f = flags();
  f.setFromConfig({ n: '0x_10', x: '2_5.5' }, 'plat.yaml');
  assert.equal(f.get('n'), 16);
  assert.equal(f.get('x'), 25.5);
});
