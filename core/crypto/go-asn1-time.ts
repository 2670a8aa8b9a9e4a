// encoding/asn1 decodes a UTCTime or GeneralizedTime value of a CSR subject into the attribute's
// `any` (parseUTCTime, parseGeneralizedTime): Go's time.Parse with fixed layouts, then time.Format
// with the same layout must give the value back, else the CSR is refused. The error texts are Go's
// own (time.ParseError's or encoding/asn1's round-trip text), so time.Parse is followed step by step
// here; wasm/assembly/go-asn1-time.ts reaches the same verdicts by the canonical form they amount to.
import { Buffer } from 'node:buffer';

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
  const s = Buffer.from(content.buffer, content.byteOffset, content.length).toString('latin1');
  let layout = tag === 0x17 ? UTC_MINUTES : GENERALIZED;
  let parsed = goParse(layout, s);
  if (typeof parsed === 'string' && tag === 0x17) {
    layout = UTC_SECONDS;
    parsed = goParse(layout, s);
  }
  if (typeof parsed === 'string') return parsed;
  const serialized = goFormat(layout, parsed);
  if (serialized === s) return undefined;
  // %q of both: a value that parsed holds only digits, signs, 'Z', '.' and ',', which %q leaves alone.
  return `asn1: time did not serialize back to the original value and may be invalid: given "${s}", but serialized as "${serialized}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

/** time's getnum: one or two digits (exactly two when fixed); the number and the rest. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 0x30, s.slice(1)];
  return [(s.charCodeAt(0) - 0x30) * 10 + s.charCodeAt(1) - 0x30, s.slice(2)];
}

/** time's atoi: an optional sign, then only digits (none at all reads as 0). */
function atoi(s: string): number | undefined {
  let neg = false;
  if (s.length > 0 && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let x = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isDigit(s, i)) return undefined;
    x = x * 10 + s.charCodeAt(i) - 0x30;
  }
  return neg ? -x : x;
}

/** time's quote: each byte past ASCII or below a space as \xNN, '"' and '\' escaped. */
function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += c === 0x22 || c === 0x5c ? '\\' + s[i] : s[i];
  }
  return out + '"';
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** time.Parse(layout, value) for the three layouts (all chunks, no literal text between them). */
function goParse(layout: Layout, value: string): Fields | string {
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
        const y = atoi(value.slice(0, 2));
        value = value.slice(2);
        if (y === undefined) bad = true;
        else f.year = y >= 69 ? y + 1900 : y + 2000;
        break;
      }
      case 'longYear': {
        if (value.length < 4 || !isDigit(value, 0)) {
          bad = true;
          break;
        }
        const y = atoi(value.slice(0, 4));
        value = value.slice(4);
        if (y === undefined) bad = true;
        else f.year = y;
        break;
      }
      case 'month': {
        const r = getnum(value, true);
        if (r === undefined) bad = true;
        else [f.month, value] = r;
        if (!bad && (f.month <= 0 || f.month > 12)) range = 'month';
        break;
      }
      case 'day': {
        const r = getnum(value, true);
        if (r === undefined) bad = true;
        else [f.day, value] = r;
        break;
      }
      case 'hour': {
        const r = getnum(value, false);
        if (r === undefined) bad = true;
        else [f.hour, value] = r;
        if (f.hour >= 24) range = 'hour';
        break;
      }
      case 'minute': {
        const r = getnum(value, true);
        if (r === undefined) bad = true;
        else [f.min, value] = r;
        if (f.min >= 60) range = 'minute';
        break;
      }
      case 'second': {
        const r = getnum(value, true);
        if (r === undefined) {
          bad = true;
          break;
        }
        [f.sec, value] = r;
        if (f.sec >= 60) {
          range = 'second';
          break;
        }
        // A fractional second the layout does not name is read (and dropped by Format).
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
          let n = 2;
          while (n < value.length && isDigit(value, n)) n++;
          value = value.slice(n);
        }
        break;
      }
      case 'zone': {
        if (value.length >= 1 && value[0] === 'Z') {
          value = value.slice(1);
          f.offset = 0;
          break;
        }
        if (value.length < 5) {
          bad = true;
          break;
        }
        const sign = value[0];
        const hh = getnum(value.slice(1, 3), true);
        const mm = hh === undefined ? undefined : getnum(value.slice(3, 5), true);
        value = value.slice(5);
        if (mm === undefined) bad = true;
        const hr = hh?.[0] ?? 0;
        const mi = mm?.[0] ?? 0;
        if (hr > 24) range = 'time zone offset hour';
        if (mi > 60) range = 'time zone offset minute';
        f.offset = (hr * 60 + mi) * 60;
        if (sign === '-') f.offset = -f.offset;
        else if (sign !== '+') bad = true;
        break;
      }
    }
    if (range !== '') return `parsing time ${quote(avalue)}: ${range} out of range`;
    if (bad) return `parsing time ${quote(avalue)} as ${quote(layout.text)}: cannot parse ${quote(hold)} as ${quote(stdstr)}`;
  }
  if (value.length !== 0) return `parsing time ${quote(avalue)}: extra text: ${quote(value)}`;
  const days = f.month === 2 && isLeap(f.year) ? 29 : DAYS[f.month - 1]!;
  if (f.day < 1 || f.day > days) return `parsing time ${quote(avalue)}: day out of range`;
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
