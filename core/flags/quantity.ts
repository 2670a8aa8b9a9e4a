// Kubernetes resource.Quantity syntax (`100Mi`, `1G`, `500m`, `1e3`) for quantity flags. The flag
// value is a plain number: plat has no use for Quantity's exact decimal arithmetic, and the
// error texts are apimachinery's so that operators recognise them.

/** apimachinery's ErrFormatWrong text. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** apimachinery's ErrSuffix text. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const BINARY: ReadonlyMap<string, number> = new Map([
  ['Ki', 2 ** 10],
  ['Mi', 2 ** 20],
  ['Gi', 2 ** 30],
  ['Ti', 2 ** 40],
  ['Pi', 2 ** 50],
  ['Ei', 2 ** 60],
]);

const DECIMAL_EXPONENT: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);

const SHAPE = /^([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))([eEinumkKMGTP]*[-+]?[0-9]*)$/;

/** Parses a Kubernetes quantity into a number (`1Ki` -> 1024, `500m` -> 0.5, `1e3` -> 1000). */
export function parseQuantity(s: string): number {
  const m = SHAPE.exec(s.trim());
  if (m === null || s.trim() !== s) throw new Error(QUANTITY_FORMAT_ERROR);
  const num = m[1] ?? '';
  const suffix = m[2] ?? '';
  const base = Number(num);
  if (!Number.isFinite(base)) throw new Error(QUANTITY_FORMAT_ERROR);
  const binary = BINARY.get(suffix);
  if (binary !== undefined) return base * binary || 0; // no -0
  const exp = DECIMAL_EXPONENT.get(suffix);
  if (exp !== undefined) return scale(num, exp);
  // `1e3`, `1E-2`: a decimal exponent. A lone `E` is exa and was handled above.
  const e = /^[eE]([-+]?[0-9]+)$/.exec(suffix);
  if (e !== null) return scale(num, Number(e[1]));
  throw new Error(QUANTITY_SUFFIX_ERROR);
}

/** num × 10^exp without the binary rounding of `0.1 * 1000` (scaling through the decimal string). */
function scale(num: string, exp: number): number {
  const v = Number(`${num}e${exp}`);
  if (!Number.isFinite(v)) throw new Error(QUANTITY_FORMAT_ERROR);
  return v === 0 ? 0 : v; // no -0
}
