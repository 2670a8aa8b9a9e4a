// apimachinery's resource.Quantity, exactly: the parser (parseQuantityString + the suffix table),
// the rounding (non-zero values round away from zero to a nano), the BinarySI cap, and the
// canonical form every Quantity is serialized in ("2000m" is stored and read back as "2", 1 GiB
// of memory as "1Gi", 25276502016 bytes as "24684084Ki"). Values are bigint counts of nano-units,
// so no float ever touches a byte count. Node capacity and allocatable are the users.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

/** apimachinery's ErrFormatWrong and ErrSuffix texts. */
export const QUANTITY_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_WRONG = "unable to parse quantity's suffix";

export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

const NANO = 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;
const DECIMAL_SUFFIXES = new Map<string, number>([['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18]]);
const BINARY_SUFFIXES = new Map<string, number>([['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]]);
const DECIMAL_BY_EXPONENT = new Map([...DECIMAL_SUFFIXES].map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map([...BINARY_SUFFIXES].map(([s, e]) => [e, s]));
const DIGIT = /[0-9]/;
const SUFFIX_LETTER = /[eEinumkKMGTP]/;

interface Parts { positive: boolean; num: string; denom: string; suffix: string }

/** parseQuantityString: sign, integer digits, fraction digits, suffix; throws on anything else. */
function split(str: string): Parts {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') { positive = false; pos++; } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && DIGIT.test(str[i]!)) i++;
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && DIGIT.test(str[i]!)) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTER.test(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && DIGIT.test(str[pos]!)) pos++;
  if (pos < end) throw new QuantityError(QUANTITY_FORMAT_WRONG);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES.get(suffix);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[-+]?[0-9]+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) <= 2 ** 31) return { base: 10, exponent, format: 'DecimalExponent' };
  }
  throw new QuantityError(QUANTITY_SUFFIX_WRONG);
}

/** ceil(n / d) for non-negative n and positive d: upstream rounds a too-precise value up. */
const divUp = (n: bigint, d: bigint): bigint => (n + d - 1n) / d;

/** resource.ParseQuantity. Throws QuantityError with upstream's message. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(QUANTITY_FORMAT_WRONG);
  if (str === '0') return { nanos: 0n, format: 'DecimalSI' };
  const { positive, num, denom, suffix } = split(str);
  let { base, exponent, format } = interpretSuffix(suffix);
  // The number as an integer over 10^denom.length, times base^exponent, in nano-units.
  const digits = BigInt(num + denom);
  let numerator = digits;
  let denominator = 10n ** BigInt(denom.length);
  if (base === 2) numerator *= 1n << BigInt(exponent);
  else if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator *= 10n ** BigInt(-exponent);
  let nanos = divUp(numerator * NANO, denominator);
  if (format === 'BinarySI' && nanos > MAX_INT64 * NANO) nanos = MAX_INT64 * NANO;
  if (format === 'BinarySI' && nanos > 0n && nanos < NANO) format = 'DecimalSI';
  return { nanos: positive ? nanos : -nanos, format };
}

/** Returns undefined instead of throwing (for validation that reports the problem itself). */
export function tryParseQuantity(str: string): Quantity | undefined {
  try { return parseQuantity(str); } catch (e) { if (e instanceof QuantityError) return undefined; throw e; }
}

function removeFactors(value: bigint, factor: bigint): [bigint, number] {
  let times = 0;
  if (value === 0n) return [value, 0];
  while (value % factor === 0n) { value /= factor; times++; }
  return [value, times];
}

function decimalText(abs: bigint, format: QuantityFormat): string {
  let [amount, times] = removeFactors(abs, 10n);
  let exponent = -9 + times;
  const rem = ((exponent % 3) + 3) % 3;
  if (rem === 1) { amount *= 10n; exponent -= 1; } else if (rem === 2) { amount *= 100n; exponent -= 2; }
  if (format === 'DecimalSI') {
    const suffix = DECIMAL_BY_EXPONENT.get(exponent);
    if (suffix !== undefined) return `${amount}${suffix}`;
  }
  return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
}

/** Quantity.String(): the canonical form. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  let format = q.format;
  // Small or fractional binary values read better (and stay exact) in decimal.
  if (format === 'BinarySI' && (abs < 1024n * NANO || abs % NANO !== 0n)) format = 'DecimalSI';
  let text: string;
  if (format === 'BinarySI') {
    const [amount, times] = removeFactors(abs / NANO, 1024n);
    const suffix = BINARY_BY_EXPONENT.get(times * 10);
    text = suffix !== undefined ? `${amount}${suffix}` : `${abs / NANO}`;
  } else {
    text = decimalText(abs, format);
  }
  return negative ? `-${text}` : text;
}

/** The canonical text of a quantity string (throws QuantityError when it does not parse). */
export const canonicalQuantity = (str: string): string => formatQuantity(parseQuantity(str));

/** What a schema's `x-go-type` says for a resource.Quantity field (see go-types.ts). */
export const QUANTITY_GO_TYPE = 'resource.Quantity';

/** Go's strings.TrimSpace: unicode.IsSpace at both ends (JavaScript's trim also takes U+FEFF). */
const goTrimSpace = (s: string): string =>
  s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');

/**
 * Quantity.UnmarshalJSON: any JSON value, not only a string, is its raw text parsed (a string's
 * without the quotes, trimmed), so `"cpu": 2` decodes as "2" and `true` fails as an unparsable
 * quantity. A number is read back from its value: `1e3` arrives as 1000, canonically "1k" where
 * upstream keeps the exponent form "1e3" (the same quantity).
 */
export function quantityFromJson(value: unknown): Quantity {
  if (typeof value === 'number') return parseQuantity(String(value));
  if (typeof value === 'string') return parseQuantity(goTrimSpace(value));
  throw new QuantityError(QUANTITY_FORMAT_WRONG);
}

/** resource.NewQuantity(value, format) for an integer. */
export const quantityOf = (value: bigint | number, format: QuantityFormat): Quantity => ({ nanos: BigInt(value) * NANO, format });
/** resource.NewMilliQuantity(value, format). */
export const milliQuantityOf = (millis: bigint | number, format: QuantityFormat): Quantity => ({ nanos: BigInt(millis) * 1_000_000n, format });

/** Cmp: -1, 0 or 1. */
export const compareQuantity = (a: Quantity, b: Quantity): number => (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0);
/** Sub keeps the first operand's format, as Quantity.Sub does. */
export const subtractQuantity = (a: Quantity, b: Quantity): Quantity => ({ nanos: a.nanos - b.nanos, format: a.format });
export const addQuantity = (a: Quantity, b: Quantity): Quantity => ({ nanos: a.nanos + b.nanos, format: a.format });
/** Value(): the integer value, rounded up as Quantity.Value rounds. */
export const quantityValue = (q: Quantity): bigint => (q.nanos >= 0n ? divUp(q.nanos, NANO) : -(-q.nanos / NANO));
/** MilliValue(), rounded up. */
export const quantityMilliValue = (q: Quantity): bigint => (q.nanos >= 0n ? divUp(q.nanos, 1_000_000n) : -(-q.nanos / 1_000_000n));
