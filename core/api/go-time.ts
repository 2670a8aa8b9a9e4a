// Go's time.Parse and Time.Format for the two layouts apimachinery uses on the wire: metav1.Time
// (time.RFC3339) and metav1.MicroTime (RFC3339Micro). A port of the `parse` of golang/go's
// src/time/format.go as published now, restricted to the layout elements these two layouts hold,
// so that what it accepts and the ParseError it answers are Go's, byte for byte: Go parses bytes,
// so the value is read as UTF-8 (a lone surrogate becomes U+FFFD, as encoding/json makes it) and
// quoted as Go's `quote` does. Go 1.20+ tries a fast RFC 3339 parser first for time.RFC3339; it
// accepts a subset of what `parse` accepts, with the same result, and on failure `parse` answers,
// so only `parse` is here. Kubernetes 1.32 builds with Go 1.23; that the zone offset's range check
// (`+25:00` refused) is already in 1.23 is assumed, not confirmed (Go 1.19 has none).
import { atoi, BAD, daysIn, getnum, goTimeQuote, isDigit } from '../go-time-parse-parts.js';

export { goTimeQuote } from '../go-time-parse-parts.js';

/** A Go time.Time as an instant: Unix seconds (UTC) and the nanoseconds within that second. */
export interface GoInstant {
  readonly seconds: number;
  /** 0 … 999 999 999; a MicroTime keeps microseconds, a parsed Time up to nanoseconds. */
  readonly nanos: number;
}

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
/** metav1.RFC3339Micro: `.000000` is stdFracSecond0, which takes exactly six digits. */
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';
export type GoTimeLayout = typeof RFC3339 | typeof RFC3339_MICRO;

/**
 * Go's time.RFC3339Nano of a UTC text with a fixed fraction (a MicroTime, an ISO string): trailing
 * fraction zeros dropped, and the dot if all are.
 */
export function rfc3339NanoOf(fixedFraction: string): string {
  return fixedFraction.replace(/0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}

/** time.ParseError, with Go's Error() text as its message. */
export class GoTimeError extends Error {
  override readonly name = 'GoTimeError';
}

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction' | 'zone' | 'end';
/** One nextStdChunk result: the literal before the element, the element, and its layout text. */
interface Chunk { prefix: string; std: Std; text: string }

const DATE_AND_CLOCK: Chunk[] = [
  { prefix: '', std: 'year', text: '2006' }, { prefix: '-', std: 'month', text: '01' }, { prefix: '-', std: 'day', text: '02' },
  { prefix: 'T', std: 'hour', text: '15' }, { prefix: ':', std: 'minute', text: '04' }, { prefix: ':', std: 'second', text: '05' },
];
const ZONE_AND_END: Chunk[] = [{ prefix: '', std: 'zone', text: 'Z07:00' }, { prefix: '', std: 'end', text: '' }];
/** Each layout as nextStdChunk splits it. */
const CHUNKS: Record<GoTimeLayout, Chunk[]> = {
  [RFC3339]: [...DATE_AND_CLOCK, ...ZONE_AND_END],
  [RFC3339_MICRO]: [...DATE_AND_CLOCK, { prefix: '', std: 'fraction', text: '.000000' }, ...ZONE_AND_END],
};

const commaOrPeriod = (b: number | undefined): boolean => b === 0x2e || b === 0x2c;

/** parseNanoseconds: `value[0]` a separator, at most nine digits counted; a negative is out of range. */
function parseNanoseconds(value: Uint8Array, nbytes: number): number | typeof BAD | 'fractional second' {
  if (!commaOrPeriod(value[0])) return BAD;
  const n = Math.min(nbytes, 10);
  const ns = atoi(value.subarray(1, n));
  if (ns === BAD) return BAD;
  if (ns < 0) return 'fractional second';
  return ns * 10 ** (10 - n);
}


/**
 * The form the API server itself writes (UTC, `Z`, a MicroTime's six digits): every time of a
 * body a client read from plat comes back in it, so it is read without the port below, which
 * costs several microseconds a time (each is read twice per write: type check, then the stored
 * form). Only a value whose elements are all in range is taken here; anything else, errors
 * included, goes through the port.
 */
const SERVED_FORM = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{6}))?Z$/;

function parseServedForm(value: string, layout: GoTimeLayout): GoInstant | undefined {
  const m = SERVED_FORM.exec(value);
  // RFC3339 would also take the fraction; the port reads that case.
  if (!m || (m[7] !== undefined) !== (layout === RFC3339_MICRO)) return undefined;
  const year = Number(m[1]), month = Number(m[2]), day = Number(m[3]);
  const hour = Number(m[4]), min = Number(m[5]), sec = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || min > 59 || sec > 59) return undefined;
  const nsec = m[7] === undefined ? 0 : Number(m[7]) * 1000;
  // Date.UTC takes years 0-99 as 1900-1999.
  return year >= 100 ? { seconds: Date.UTC(year, month - 1, day, hour, min, sec) / 1000, nanos: nsec } : instant(year, month, day, hour, min, sec, nsec, 0);
}

function instant(year: number, month: number, day: number, hour: number, min: number, sec: number, nsec: number, offset: number): GoInstant {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, min, sec, 0);
  return { seconds: date.getTime() / 1000 - offset, nanos: nsec };
}

/** time.Parse(layout, value), or GoTimeError with Go's text. */
export function parseGoTime(value: string, layout: GoTimeLayout): GoInstant {
  return parseServedForm(value, layout) ?? parseGoTimePort(value, layout);
}

/** parseGoTime without the served form's shortcut: the port of Go's parse (exported for its test). */
export function parseGoTimePort(value: string, layout: GoTimeLayout): GoInstant {
  const whole = Buffer.from(value, 'utf8');
  const fail = (message: string): GoTimeError => new GoTimeError(`parsing time ${goTimeQuote(whole)}${message}`);
  const cannotParse = (elem: Uint8Array, layoutElem: string): GoTimeError =>
    fail(` as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(elem)} as ${goTimeQuote(layoutElem)}`);
  const chunks = CHUNKS[layout];
  let rest: Uint8Array = whole;
  let year = 0, month = 0, day = 0, hour = 0, min = 0, sec = 0, nsec = 0, offset = 0;
  for (let c = 0; c < chunks.length; c++) {
    const { prefix, std, text } = chunks[c]!;
    // skip(): the literal byte by byte (these layouts have no spaces).
    for (let i = 0; i < prefix.length; i++) {
      if (rest[0] !== prefix.charCodeAt(i)) throw cannotParse(rest, prefix);
      rest = rest.subarray(1);
    }
    if (std === 'end') {
      if (rest.length) throw fail(`: extra text: ${goTimeQuote(rest)}`);
      break;
    }
    // A failed element is quoted from where it began (`hold`), as later Go does; Go 1.19
    // quoted what was left after a partly read element.
    const hold = rest;
    let range = '';
    let bad = false;
    switch (std) {
      case 'year': {
        if (rest.length < 4 || !isDigit(rest, 0)) { bad = true; break; }
        const y = atoi(rest.subarray(0, 4));
        rest = rest.subarray(4);
        if (y === BAD) bad = true; else year = y;
        break;
      }
      case 'month': case 'day': case 'hour': case 'minute': {
        // The hour is "15", which takes one digit as well as two.
        const got = getnum(rest, std !== 'hour');
        if (got === BAD) { bad = true; break; }
        const [n, after] = got;
        rest = after;
        if (std === 'month') { month = n; if (n <= 0 || n > 12) range = 'month'; }
        if (std === 'day') day = n;
        if (std === 'hour') { hour = n; if (n >= 24) range = 'hour'; }
        if (std === 'minute') { min = n; if (n >= 60) range = 'minute'; }
        break;
      }
      case 'second': {
        const got = getnum(rest, true);
        if (got === BAD) { bad = true; break; }
        [sec, rest] = got;
        if (sec >= 60) { range = 'second'; break; }
        // A fraction the layout does not hold is still taken, any number of digits.
        if (rest.length >= 2 && commaOrPeriod(rest[0]) && isDigit(rest, 1) && chunks[c + 1]!.std !== 'fraction') {
          let n = 2;
          while (isDigit(rest, n)) n++;
          nsec = parseNanoseconds(rest, n) as number; // digits only: neither BAD nor out of range
          rest = rest.subarray(n);
        }
        break;
      }
      case 'fraction': {
        const ndigit = text.length; // the separator and exactly as many digits as the layout has
        if (rest.length < ndigit) { bad = true; break; }
        const ns = parseNanoseconds(rest, ndigit);
        rest = rest.subarray(ndigit);
        if (ns === BAD) bad = true;
        else if (ns === 'fractional second') range = ns;
        else nsec = ns;
        break;
      }
      case 'zone': {
        if (rest[0] === 0x5a) { rest = rest.subarray(1); offset = 0; break; }
        if (rest.length < 6 || rest[3] !== 0x3a) { bad = true; break; }
        const sign = rest[0];
        const hh = getnum(rest.subarray(1, 3), true);
        const mm = hh === BAD ? BAD : getnum(rest.subarray(4, 6), true);
        rest = rest.subarray(6);
        const hr = hh === BAD ? 0 : hh[0];
        const mi = mm === BAD ? 0 : mm[0];
        // Go tests with > rather than >=: offsets of 24 hours or 60 minutes pass.
        if (hr > 24) range = 'time zone offset hour';
        if (mi > 60) range = 'time zone offset minute';
        offset = (hr * 60 + mi) * 60 * (sign === 0x2d ? -1 : 1);
        bad = hh === BAD || mm === BAD || (sign !== 0x2b && sign !== 0x2d);
        break;
      }
    }
    if (range) throw fail(`: ${range} out of range`);
    if (bad) throw cannotParse(hold, text);
  }
  if (day < 1 || day > daysIn(month, year)) throw fail(': day out of range');
  return instant(year, month, day, hour, min, sec, nsec, offset);
}

/** Go's appendInt(b, year, 4): at least four digits, a minus sign before a negative year. */
const goYear = (y: number): string => (y < 0 ? '-' : '') + String(Math.abs(y)).padStart(4, '0');
const two = (n: number): string => String(n).padStart(2, '0');

/** t.UTC().Format(layout): RFC3339 drops the fraction; RFC3339Micro truncates it to six digits. */
export function formatGoTime(t: GoInstant, layout: GoTimeLayout): string {
  const d = new Date(t.seconds * 1000);
  const clock = `${goYear(d.getUTCFullYear())}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  if (layout === RFC3339) return `${clock}Z`;
  return `${clock}.${String(Math.floor(t.nanos / 1000)).padStart(6, '0')}Z`;
}

/** time.Time{}.IsZero(): January 1, year 1, 00:00:00 UTC, which metav1 marshals as null. */
const ZERO_SECONDS = -62135596800;

/**
 * The instant as metav1 serves it, or null for the zero time. A Time is stored at whole seconds
 * (its protobuf form drops the nanoseconds), so a fraction of the zero second is zero too.
 */
export function servedGoTime(t: GoInstant, layout: GoTimeLayout): string | null {
  return isServedZero(t, layout) ? null : formatGoTime(t, layout);
}

const isServedZero = (t: GoInstant, layout: GoTimeLayout): boolean =>
  t.seconds === ZERO_SECONDS && (layout === RFC3339 || Math.floor(t.nanos / 1000) === 0);

/**
 * servedGoTime(parseGoTime(value, layout), layout): a value already in the served form is its own
 * served form (four-digit year, UTC, the layout's digits), so it is not formatted again.
 */
export function servedGoTimeOf(value: string, layout: GoTimeLayout): string | null {
  const t = parseServedForm(value, layout);
  if (t) return isServedZero(t, layout) ? null : value;
  return servedGoTime(parseGoTimePort(value, layout), layout);
}

/** Go's error for `value` in `layout`, or undefined when it parses. */
export function goTimeError(value: string, layout: GoTimeLayout): string | undefined {
  try {
    parseGoTime(value, layout);
    return undefined;
  } catch (e) {
    if (e instanceof GoTimeError) return e.message;
    throw e;
  }
}
