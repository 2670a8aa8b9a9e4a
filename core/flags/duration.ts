// Go's time.ParseDuration and Duration.String(), so that flag values and `(default 1m0s)` in
// --help read exactly as operators know them from Kubernetes components. Arithmetic runs on
// BigInt nanoseconds: Go's durations are int64 nanoseconds and 8760h does not fit a double's
// exact integer range in nanoseconds.

const NS = 1n;
const US = 1000n * NS;
const MS = 1000n * US;
const S = 1000n * MS;
const M = 60n * S;
const H = 60n * M;
const MAX_INT64 = (1n << 63n) - 1n;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', NS],
  ['us', US],
  ['µs', US], // U+00B5 micro sign
  ['μs', US], // U+03BC Greek mu
  ['ms', MS],
  ['s', S],
  ['m', M],
  ['h', H],
]);

/** Go's strconv.Quote for the plain strings that reach these messages. */
function quote(s: string): string {
  return JSON.stringify(s);
}

/** Parses a duration in nanoseconds with Go's grammar `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`. */
export function parseDurationNanos(s: string): bigint {
  const orig = s;
  const invalid = () => new Error(`time: invalid duration ${quote(orig)}`);
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    let i = 0;
    while (i < s.length && isDigit(s[i])) i++;
    const whole = s.slice(0, i);
    s = s.slice(i);
    let frac = '';
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      while (j < s.length && isDigit(s[j])) j++;
      frac = s.slice(0, j);
      s = s.slice(j);
    }
    if (whole === '' && frac === '') throw invalid(); // ".s" or "-.s"
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) throw new Error(`time: missing unit in duration ${quote(orig)}`);
    const unitName = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(unitName);
    if (unit === undefined) throw new Error(`time: unknown unit ${quote(unitName)} in duration ${quote(orig)}`);
    const v = whole === '' ? 0n : BigInt(whole);
    if (v > MAX_INT64 / unit) throw invalid();
    let part = v * unit;
    if (frac !== '') part += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += part;
    if (total > MAX_INT64) throw invalid();
  }
  return neg ? -total : total;
}

/**
 * Go's time.ParseDuration (`1h0m0s`, `30s`, `500ms`, `1.5h`, `-1m`, `0`), in milliseconds.
 * Sub-millisecond durations come back as fractions (`1500us` is 1.5).
 */
export function parseDuration(s: string): number {
  const ns = parseDurationNanos(s);
  const whole = ns / MS;
  const rest = ns % MS;
  return Number(whole) + Number(rest) / 1e6;
}

/** Go's Duration.String() of a duration given in milliseconds (rounded to whole nanoseconds). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`formatDuration: not a finite number: ${ms}`);
  return formatDurationNanos(BigInt(Math.round(ms * 1e6)));
}

export function formatDurationNanos(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < S) {
    // Under a second Go switches to the largest unit below: ns, µs or ms, with a fraction.
    let prec: number;
    let unit: string;
    if (u < US) {
      prec = 0;
      unit = 'ns';
    } else if (u < MS) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [frac, int] = fmtFrac(u, prec);
    out = `${int}${frac}${unit}`;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** The fraction v / 10^prec without trailing zeros (and without the dot when zero), and the integer part. */
function fmtFrac(v: bigint, prec: number): [string, bigint] {
  if (prec === 0) return ['', v];
  const scale = 10n ** BigInt(prec);
  const fracDigits = (v % scale).toString().padStart(prec, '0').replace(/0+$/, '');
  return [fracDigits === '' ? '' : `.${fracDigits}`, v / scale];
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
