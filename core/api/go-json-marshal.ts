// encoding/json's Marshal for the plain values plat hands it: JSON.stringify's text, with the
// characters Go escapes so that the output is safe inside HTML and JavaScript, and Go's refusal of
// NaN and ±Inf (JSON.stringify would write null, which Go never does).

/** encoding/json's UnsupportedValueError. */
export class GoJsonUnsupportedValue extends Error {}

/** strconv.FormatFloat(f, 'g', -1, 64) of a value JSON cannot hold, as Go's error names it. */
const nonFiniteText = (f: number) => (Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf');

export function goJsonMarshal(v: unknown): string {
  const text = JSON.stringify(v, (_key, x: unknown) => {
    if (typeof x === 'number' && !Number.isFinite(x)) throw new GoJsonUnsupportedValue(`json: unsupported value: ${nonFiniteText(x)}`);
    return x;
  });
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
