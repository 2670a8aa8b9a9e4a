// encoding/json's text for the plain values plat hands it: JSON.stringify's, with the characters
// Go escapes so that the output is safe inside HTML and JavaScript. goJsonMarshal is Marshal, with
// Go's refusal of NaN and ±Inf (JSON.stringify would write null, which Go never does); goJsonEncode
// what the API machinery's serializer writes, every JSON answer's bytes.

/** encoding/json's UnsupportedValueError. */
export class GoJsonUnsupportedValue extends Error {}

/** strconv.FormatFloat(f, 'g', -1, 64) of a value JSON cannot hold, as Go's error names it. */
const nonFiniteText = (f: number) => (Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf');

export function goJsonMarshal(v: unknown): string {
  const text = JSON.stringify(v, (_key, x: unknown) => {
    if (typeof x === 'number' && !Number.isFinite(x)) throw new GoJsonUnsupportedValue(`json: unsupported value: ${nonFiniteText(x)}`);
    return x;
  });
  return goJsonEscape(text);
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/;
const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Go's HTML-safe escaping (Marshal, MarshalIndent and an Encoder alike) of JSON.stringify's text.
 * In JSON text these characters occur only inside strings, so a plain replace is exact; most
 * answers have none, and the one test keeps them from paying for the replace.
 */
export function goJsonEscape(text: string): string {
  return HTML_UNSAFE.test(text) ? text.replace(HTML_UNSAFE_ALL, escapeChar) : text;
}

/**
 * What apimachinery's JSON serializer writes: json.Encoder's compact line, newline-terminated, or
 * with `pretty` json.MarshalIndent's two-space indent and no newline.
 */
export function goJsonEncode(v: unknown, pretty = false): string {
  return pretty ? goJsonEscape(JSON.stringify(v, null, 2)) : `${goJsonCompact(v)}\n`;
}

// A write's answer and its watch events are one frozen object (ResourceStore.toSharedObject): its
// compact text is made once, for the answer and every watch.
const compactTexts = new WeakMap<object, string>();

/**
 * goJsonEscape(JSON.stringify(v)), kept for a frozen object: one frozen at its top level must be
 * frozen all the way down (the store's shared objects are), or a later change would not show.
 */
export function goJsonCompact(v: unknown): string {
  if (v === null || typeof v !== 'object' || !Object.isFrozen(v)) return goJsonEscape(JSON.stringify(v));
  let text = compactTexts.get(v);
  if (text === undefined) { text = goJsonEscape(JSON.stringify(v)); compactTexts.set(v, text); }
  return text;
}

/**
 * A float32 as the number whose JavaScript text is Go's for it: encoding/json writes a float32 with
 * the fewest digits that read back as the same float32 (`0.1`, where the widened double prints
 * `0.10000000149011612`). Go's choice of exponent form (below 1e-6, from 1e21) and its exponent
 * text (`1e-7`, `1e+21`) are JavaScript's too.
 */
export function goFloat32(f: number): number {
  if (!Number.isFinite(f) || f === 0) return f;
  for (let digits = 1; digits < 9; digits++) {
    const shortest = Number(f.toPrecision(digits));
    if (Math.fround(shortest) === f) return shortest;
  }
  return Number(f.toPrecision(9));
}
