// encoding/asn1 decodes a UTCTime or GeneralizedTime value of a CSR subject into the attribute's
// `any` (parseUTCTime, parseGeneralizedTime): Go's time.Parse with fixed layouts, then time.Format
// with the same layout must give the value back, else the CSR is refused. The error texts are Go's
// own (time.ParseError's or encoding/asn1's round-trip text), so time.Parse is followed step by step
// here; wasm/assembly/go-asn1-time.ts reaches the same verdicts by the canonical form they amount to.
import { Buffer } from 'node:buffer';
import { atoi, BAD, daysIn, getnum, goTimeQuote as quote, isDigit } from '../go-time-parse-parts.js';

type Std = 'year' | 'longYear' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone';
type Layout = { text: string; chunks: readonly (readonly [Std, string])[] };

const UTC_MINUTES: Layout = {
  text: '0601021504Z0700',
  chunks: [['year', '06'], ['month', '01'], ['day', '02'], ['hour', '15'], ['minute', '04'], ['zone', 'Z0700']],
};
const UTC_SECONDS: Layout = {
  text: '060102150405Z0700',
  chunks: [['year', '06'], ['month', '01'], ['day', '02'], ['hour', '15'], ['minute', '04'], ['second', '05'], ['zone', 'Z0700']],
};
const GENERALIZED: Layout = {
  text: '20060102150405Z0700',
  chunks: [['longYear', '2006'], ['month', '01'], ['day', '02'], ['hour', '15'], ['minute', '04'], ['second', '05'], ['zone', 'Z0700']],
};

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  /** Seconds east of UTC (0 for Z). */
  offset: number;
}

/** Go's UTCTime/GeneralizedTime error text for the value's content, or undefined when Go takes it. */
export function goAsn1TimeError(tag: number, content: Uint8Array): string | undefined {
  let layout = tag === 0x17 ? UTC_MINUTES : GENERALIZED;
  let parsed = goParse(layout, content);
  if (typeof parsed === 'string' && tag === 0x17) {
    layout = UTC_SECONDS;
    parsed = goParse(layout, content);
  }
  if (typeof parsed === 'string') return parsed;
  const serialized = goFormat(layout, parsed);
  // A value that parsed holds only digits, signs, 'Z', '.' and ',': its bytes are its text, which %q leaves alone.
  // Not String.fromCharCode(...content): a long fraction parses, and spreading ~100k bytes overflows the stack.
  const given = Buffer.from(content.buffer, content.byteOffset, content.length).toString('latin1');
  if (serialized === given) return undefined;
  return `asn1: time did not serialize back to the original value and may be invalid: given "${given}", but serialized as "${serialized}"`;
}

/** time.Parse(layout, value) for the three layouts (all chunks, no literal text between them). */
function goParse(layout: Layout, value: Uint8Array): Fields | string {
  const avalue = value;
  const f: Fields = { year: 0, month: -1, day: -1, hour: 0, min: 0, sec: 0, offset: 0 };
  for (const [std, stdstr] of layout.chunks) {
    const hold = value;
    let bad = false;
    let range = '';
    switch (std) {
      case 'year': {
        if (value.length < 2) {
          bad = true;
          break;
        }
        const y = atoi(value.subarray(0, 2));
        value = value.subarray(2);
        if (y === BAD) bad = true;
        else f.year = y >= 69 ? y + 1900 : y + 2000;
        break;
      }
      case 'longYear': {
        if (value.length < 4 || !isDigit(value, 0)) {
          bad = true;
          break;
        }
        const y = atoi(value.subarray(0, 4));
        value = value.subarray(4);
        if (y === BAD) bad = true;
        else f.year = y;
        break;
      }
      case 'month': {
        const r = getnum(value, true);
        if (r === BAD) bad = true;
        else [f.month, value] = r;
        if (!bad && (f.month <= 0 || f.month > 12)) range = 'month';
        break;
      }
      case 'day': {
        const r = getnum(value, true);
        if (r === BAD) bad = true;
        else [f.day, value] = r;
        break;
      }
      case 'hour': {
        const r = getnum(value, false);
        if (r === BAD) bad = true;
        else [f.hour, value] = r;
        if (f.hour >= 24) range = 'hour';
        break;
      }
      case 'minute': {
        const r = getnum(value, true);
        if (r === BAD) bad = true;
        else [f.min, value] = r;
        if (f.min >= 60) range = 'minute';
        break;
      }
      case 'second': {
        const r = getnum(value, true);
        if (r === BAD) {
          bad = true;
          break;
        }
        [f.sec, value] = r;
        if (f.sec >= 60) {
          range = 'second';
          break;
        }
        // A fractional second the layout does not name is read (and dropped by Format).
        if (value.length >= 2 && (value[0] === 0x2e || value[0] === 0x2c) && isDigit(value, 1)) {
          let n = 2;
          while (n < value.length && isDigit(value, n)) n++;
          value = value.subarray(n);
        }
        break;
      }
      case 'zone': {
        if (value.length >= 1 && value[0] === 0x5a) {
          value = value.subarray(1);
          f.offset = 0;
          break;
        }
        if (value.length < 5) {
          bad = true;
          break;
        }
        const sign = value[0];
        const hh = getnum(value.subarray(1, 3), true);
        const mm = hh === BAD ? BAD : getnum(value.subarray(3, 5), true);
        value = value.subarray(5);
        if (mm === BAD) bad = true;
        const hr = hh === BAD ? 0 : hh[0];
        const mi = mm === BAD ? 0 : mm[0];
        if (hr > 24) range = 'time zone offset hour';
        if (mi > 60) range = 'time zone offset minute';
        f.offset = (hr * 60 + mi) * 60;
        if (sign === 0x2d) f.offset = -f.offset;
        else if (sign !== 0x2b) bad = true;
        break;
      }
    }
    if (range !== '') return `parsing time ${quote(avalue)}: ${range} out of range`;
    if (bad) return `parsing time ${quote(avalue)} as ${quote(layout.text)}: cannot parse ${quote(hold)} as ${quote(stdstr)}`;
  }
  if (value.length !== 0) return `parsing time ${quote(avalue)}: extra text: ${quote(value)}`;
  if (f.day < 1 || f.day > daysIn(f.month, f.year)) return `parsing time ${quote(avalue)}: day out of range`;
  return f;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** time.Format(layout) of a parsed time: its own fields, in its own (the parsed) offset. */
function goFormat(layout: Layout, f: Fields): string {
  let out = '';
  for (const [std] of layout.chunks) {
    switch (std) {
      case 'year': out += pad(f.year % 100, 2); break;
      case 'longYear': out += pad(f.year, 4); break;
      case 'month': out += pad(f.month, 2); break;
      case 'day': out += pad(f.day, 2); break;
      case 'hour': out += pad(f.hour, 2); break;
      case 'minute': out += pad(f.min, 2); break;
      case 'second': out += pad(f.sec, 2); break;
      case 'zone': {
        if (f.offset === 0) {
          out += 'Z';
          break;
        }
        const minutes = Math.abs(f.offset) / 60;
        out += (f.offset < 0 ? '-' : '+') + pad(Math.floor(minutes / 60), 2) + pad(minutes % 60, 2);
        break;
      }
    }
  }
  return out;
}
