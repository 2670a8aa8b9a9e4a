// time.Parse and UTC Format for metav1.Time (RFC3339) and metav1.MicroTime (RFC3339Micro). Texts
// marked 1.19 were printed by Go 1.19.8 (`time.Parse(layout, v)`, then `t.UTC().Format(layout)`).
// Texts marked 1.23 are where Go 1.19 prints otherwise and the expectation is read from
// golang/go's src/time/format.go: a failed element is quoted from where it began (`hold`), where
// 1.19 quoted what followed a partly read element; the zone's hours and minutes are read as
// exactly two digits and `+25:00` / `+02:61` are out of range (1.19 took any atoi and no range;
// that 1.23 itself has the range check is assumed, not confirmed).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoTime, goTimeError, goTimeQuote, parseGoTime, parseGoTimePort, RFC3339, RFC3339_MICRO, servedGoTime, servedGoTimeOf, type GoTimeLayout } from '../../core/api/go-time.js';

const T = RFC3339;
const M = RFC3339_MICRO;
const as = (layout: string) => ` as "${layout}"`;
/** An expected error: the part after `parsing time "<value>"`. */
type Failure = { error: string };
const cannot = (layout: string, elem: string, layoutElem: string): Failure => ({ error: `${as(layout)}: cannot parse ${elem} as "${layoutElem}"` });
const says = (message: string): Failure => ({ error: `: ${message}` });

const CASES: Array<[GoTimeLayout, string, string | Failure]> = [
  // 1.19: Time keeps the instant, drops the fraction, serves UTC.
  [T, '2026-01-01T01:00:00.5+02:00', '2025-12-31T23:00:00Z'],
  [T, '2026-01-01T01:00:00.123456+02:00', '2025-12-31T23:00:00Z'],
  [T, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
  [T, '2026-01-01T00:00:00.1234567891234Z', '2026-01-01T00:00:00Z'],
  [T, '2026-01-01T00:00:00,123456Z', '2026-01-01T00:00:00Z'],
  [T, '2026-01-01T00:00:00.123456-07:30', '2026-01-01T07:30:00Z'],
  [T, '2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
  [T, '2026-01-01T1:00:00Z', '2026-01-01T01:00:00Z'],
  [T, '2026-01-01T00:00:00+24:00', '2025-12-31T00:00:00Z'],
  [T, '2026-01-01T00:00:00+02:60', '2025-12-31T21:00:00Z'],
  [T, '1969-12-31T23:59:59.999999Z', '1969-12-31T23:59:59Z'],
  [T, '0000-01-01T00:00:00+01:00', '-0001-12-31T23:00:00Z'],
  [T, '9999-12-31T23:59:59-01:00', '10000-01-01T00:59:59Z'],
  // 1.19: Time's refusals.
  [T, 'bad', cannot(T, '"bad"', '2006')],
  [T, '', cannot(T, '""', '2006')],
  [T, '2026', cannot(T, '""', '-')],
  [T, '2026-1-01T00:00:00Z', cannot(T, '"1-01T00:00:00Z"', '01')],
  [T, '2026-13-01T00:00:00Z', says('month out of range')],
  [T, '2026-00-01T00:00:00Z', says('month out of range')],
  [T, '2026-02-29T00:00:00Z', says('day out of range')],
  [T, '2026-04-31T00:00:00Z', says('day out of range')],
  [T, '2026-01-00T00:00:00Z', says('day out of range')],
  [T, '2026-01-01T24:00:00Z', says('hour out of range')],
  [T, '2026-01-01T00:60:00Z', says('minute out of range')],
  [T, '2026-01-01T00:00:60Z', says('second out of range')],
  [T, '2026-01-01 00:00:00Z', cannot(T, '" 00:00:00Z"', 'T')],
  [T, '2026-01-01t00:00:00Z', cannot(T, '"t00:00:00Z"', 'T')],
  [T, '2026-01-01T00:00:00', cannot(T, '""', 'Z07:00')],
  [T, '2026-01-01T00:00:00+0200', cannot(T, '"+0200"', 'Z07:00')],
  [T, '2026-01-01T00:00:00z', cannot(T, '"z"', 'Z07:00')],
  [T, '2026-01-01T00:00:00.Z', cannot(T, '".Z"', 'Z07:00')],
  [T, '2026-01-01T00:00:00ZZ', says('extra text: "Z"')],
  [T, '2026-01-01T00:00:00.123456Z07:00', says('extra text: "07:00"')],
  [T, '2026-01-01T00:00:00Zé', says('extra text: "\\xc3\\xa9"')],
  [T, '"2026"', cannot(T, '"\\"2026\\""', '2006')],
  [T, '2026-01-01T00:00:00\u0001', cannot(T, '"\\x01"', 'Z07:00')],
  // 1.23: the element quoted from its start; the zone read as two-digit fields, in range.
  [T, '20a6-01-01T00:00:00Z', cannot(T, '"20a6-01-01T00:00:00Z"', '2006')],
  [T, '2026-01-01T00:00:00x02:00', cannot(T, '"x02:00"', 'Z07:00')],
  [T, '2026-01-01T00:00:00+0a:00', cannot(T, '"+0a:00"', 'Z07:00')],
  [T, '2026-01-01T00:00:00+25:00', says('time zone offset hour out of range')],
  [T, '2026-01-01T00:00:00+02:61', says('time zone offset minute out of range')],

  // 1.19: MicroTime keeps exactly six digits and serves UTC.
  [M, '2026-01-01T01:00:00.123456+02:00', '2025-12-31T23:00:00.123456Z'],
  [M, '2026-01-01T00:00:00,123456Z', '2026-01-01T00:00:00.123456Z'],
  [M, '2026-01-01T00:00:00.123456-07:30', '2026-01-01T07:30:00.123456Z'],
  [M, '1970-01-01T00:00:00.000001Z', '1970-01-01T00:00:00.000001Z'],
  [M, '1969-12-31T23:59:59.999999Z', '1969-12-31T23:59:59.999999Z'],
  [M, '2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000Z'],
  // atoi takes a sign, so six bytes "+12345" are a fraction; "-00000" is zero, not negative.
  [M, '2026-01-01T00:00:00.+12345Z', '2026-01-01T00:00:00.012345Z'],
  [M, '2026-01-01T00:00:00.-00000Z', '2026-01-01T00:00:00.000000Z'],
  // 1.19: MicroTime's refusals: no fraction, a short one, a long one.
  [M, '2026-01-01T00:00:00Z', cannot(M, '"Z"', '.000000')],
  [M, '2026-01-01T00:00:00.5Z', cannot(M, '".5Z"', '.000000')],
  [M, '2026-01-01T00:00:00.123456789Z', cannot(M, '"789Z"', 'Z07:00')],
  [M, '2026-01-01T00:00:00.1234567+01:00', cannot(M, '"7+01:00"', 'Z07:00')],
  [M, '2026-01-01T00:00:00.123456', cannot(M, '""', 'Z07:00')],
  [M, '2026-01-01T00:00:00', cannot(M, '""', '.000000')],
  [M, '2026-01-01T00:00:00+02:00', cannot(M, '"+02:00"', '.000000')],
  [M, '2026-01-01T00:00:00.-12345Z', says('fractional second out of range')],
  [M, '2026-01-01T00:60:00.000000Z', says('minute out of range')],
  [M, '2026-02-29T00:00:00.000000Z', says('day out of range')],
  [M, '2026-01-01 00:00:00.000000Z', cannot(M, '" 00:00:00.000000Z"', 'T')],
  [M, '2026-01-01T00:00:00.000000Z07:00', says('extra text: "07:00"')],
  // 1.23: a fraction that fails is quoted from its separator.
  [M, '2026-01-01T01:00:00.5+02:00', cannot(M, '".5+02:00"', '.000000')],
  [M, '2026-01-01T00:00:00.12345xZ', cannot(M, '".12345xZ"', '.000000')],
  [M, '2026-01-01T00:00:00.12345é', cannot(M, '".12345\\xc3\\xa9"', '.000000')],
  [M, '2026-01-01T00:00:00.12345+01:00', cannot(M, '".12345+01:00"', '.000000')],
];

describe('Go time.Parse and Format', () => {
  for (const [layout, value, want] of CASES) {
    const name = `${layout === T ? 'Time' : 'MicroTime'} ${JSON.stringify(value)}`;
    if (typeof want === 'string') {
      it(`${name} is ${want}`, () => {
        assert.equal(goTimeError(value, layout), undefined);
        assert.equal(formatGoTime(parseGoTime(value, layout), layout), want);
      });
    } else {
      it(`${name} is refused`, () => assert.equal(goTimeError(value, layout), `parsing time ${goTimeQuote(value)}${want.error}`));
    }
  }

  it('keeps the microseconds of the instant', () => {
    assert.deepEqual(parseGoTime('2026-01-01T01:00:00.123456+02:00', M), { seconds: Date.UTC(2025, 11, 31, 23) / 1000, nanos: 123_456_000 });
    assert.deepEqual(parseGoTime('2026-01-01T00:00:00.123456789Z', T), { seconds: Date.UTC(2026, 0, 1) / 1000, nanos: 123_456_789 });
  });

  it('serves the zero time (January 1, year 1, UTC) as null, as metav1 marshals it', () => {
    assert.equal(servedGoTime(parseGoTime('0001-01-01T00:00:00Z', T), T), null);
    assert.equal(servedGoTime(parseGoTime('0001-01-01T01:00:00+01:00', T), T), null);
    // A Time is stored at whole seconds: a fraction of the zero second reads back as zero.
    assert.equal(servedGoTime(parseGoTime('0001-01-01T00:00:00.5Z', T), T), null);
    assert.equal(servedGoTime(parseGoTime('0001-01-01T00:00:00.000000Z', M), M), null);
    assert.equal(servedGoTime(parseGoTime('0001-01-01T00:00:00.000001Z', M), M), '0001-01-01T00:00:00.000001Z');
    assert.equal(servedGoTime(parseGoTime('0001-01-01T00:00:01Z', T), T), '0001-01-01T00:00:01Z');
  });

  it('reads the served form as the port reads it and serves it as it would, every element at and past its range', () => {
    const outcome = (f: () => unknown): unknown => { try { return f(); } catch (e) { return (e as Error).message; } };
    const years = ['0000', '0001', '1969', '2024', '2100', '9999'];
    const months = ['00', '01', '02', '09', '10', '12', '13', '99'];
    const days = ['00', '01', '28', '29', '30', '31', '32'];
    const clocks = ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60', '99:99:99', '07:08:09'];
    const fractions = ['', '.000000', '.999999', '.5', ',000000'];
    const zones = ['Z', '+00:00', ''];
    let compared = 0;
    // Most of the 70,560 values are refused, each with a thrown error whose message alone is
    // compared: capturing their stacks took most of this test's time.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      for (const layout of [T, M] as const) for (const y of years) for (const mo of months) for (const d of days) for (const c of clocks) for (const f of fractions) for (const z of zones) {
        const v = `${y}-${mo}-${d}T${c}${f}${z}`;
        assert.deepEqual(outcome(() => parseGoTime(v, layout)), outcome(() => parseGoTimePort(v, layout)), `${layout} ${v}`);
        assert.equal(outcome(() => servedGoTimeOf(v, layout)), outcome(() => servedGoTime(parseGoTimePort(v, layout), layout)), `served ${layout} ${v}`);
        compared++;
      }
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    // Not the served form at all: whitespace around it, a newline before the end.
    for (const v of [' 2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z\n', '2026-01-01T00:00:00Z ', '+2026-01-01T00:00:00Z']) {
      assert.deepEqual(outcome(() => parseGoTime(v, T)), outcome(() => parseGoTimePort(v, T)), v);
    }
    assert.equal(compared, 2 * years.length * months.length * days.length * clocks.length * fractions.length * zones.length);
  });
});
