// The registered claims of an ID token, decoded as go-oidc v2 (the one Kubernetes 1.32 vendors)
// decodes them with Go's encoding/json into its idToken struct: keys matched case-insensitively,
// null leaving a field zero, a NumericDate read through json.Number (so a quoted number counts and
// a fraction is truncated), and every refusal worded as Go words it. The token's other claims are
// left to the claim mappings.

/** Go's `time.Time` as go-oidc builds one: whole Unix seconds (an int64). */
export type UnixSeconds = bigint;

export interface IdToken {
  readonly issuer: string;
  readonly audience: readonly string[];
  /** The zero time (year 1) when absent, which is always in the past. */
  readonly expiry: UnixSeconds;
  /** Absent or null: no not-before check at all. */
  readonly notBefore: UnixSeconds | undefined;
  readonly claimNames: Readonly<Record<string, string>>;
  readonly claimSources: Readonly<Record<string, unknown>>;
}

export class ClaimsDecodeError extends Error {
  override readonly name = 'ClaimsDecodeError';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Seconds from year 1 to 1970: Go's Time counts from year 1, so `Before` compares these sums. */
const UNIX_TO_INTERNAL = 62_135_596_800n;
export const GO_ZERO_TIME: UnixSeconds = -UNIX_TO_INTERNAL;

const FIELDS = ['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'nonce', 'at_hash', '_claim_names', '_claim_sources'] as const;
type Field = (typeof FIELDS)[number];

/** encoding/json's foldName: ASCII case, plus the four non-ASCII runes that fold into ASCII letters. */
const FOLD: Readonly<Record<string, string>> = { '\u017f': 'S', '\u212a': 'K', '\u0131': 'I', '\u0130': 'I' };
const fold = (s: string) => [...s].map((c) => FOLD[c] ?? (c < '\u0080' ? c.toUpperCase() : c)).join('');

function fieldOf(key: string): Field | undefined {
  if ((FIELDS as readonly string[]).includes(key)) return key as Field;
  const f = fold(key);
  return FIELDS.find((name) => fold(name) === f);
}

const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);
const typeError = (v: unknown, type: string, field?: string) =>
  new ClaimsDecodeError(`json: cannot unmarshal ${kind(v)} into Go ${field ? `struct field ${field}` : 'value'} of type ${type}`);

/** Go's strconv.Quote of the raw JSON text of a string (what `%q` of the item bytes prints). */
const goQuoteRaw = (s: string) => `"${JSON.stringify(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const VALID_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/**
 * go-oidc's jsonTime.UnmarshalJSON: into a json.Number (a JSON number, or a string holding a number
 * literal), then Int64, else Float64 truncated to int64. A float beyond int64 converts as amd64 does
 * (to the minimum int64), which Go leaves to the platform.
 */
function jsonTime(v: unknown, field: string): UnixSeconds {
  let text: string;
  if (v === null) text = '';
  else if (typeof v === 'number') text = String(v);
  else if (typeof v === 'string') {
    if (!VALID_NUMBER.test(v)) throw new ClaimsDecodeError(`json: invalid number literal, trying to unmarshal ${goQuoteRaw(v)} into Number`);
    text = v;
  } else throw typeError(v, 'json.Number', field);
  if (/^-?[0-9]+$/.test(text)) {
    const n = BigInt(text);
    if (n >= INT64_MIN && n <= INT64_MAX) return n;
  }
  const f = text === '' ? NaN : Number(text);
  if (Number.isNaN(f)) throw new ClaimsDecodeError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  if (!Number.isFinite(f)) throw new ClaimsDecodeError(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: value out of range`);
  if (f >= 2 ** 63 || f < -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(f));
}

/** go-oidc's audience.UnmarshalJSON: a string (null being ""), else a list of strings. */
function audience(v: unknown): string[] {
  if (v === null) return [''];
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) throw typeError(v, '[]string', 'idToken.aud');
  const bad = v.find((a) => a !== null && typeof a !== 'string');
  if (bad !== undefined) throw typeError(bad, 'string', 'idToken.aud');
  return v.map((a) => (a === null ? '' : (a as string)));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Decodes the payload's registered claims; throws ClaimsDecodeError with Go's text. As encoding/json
 * does, a type mismatch is remembered and decoding goes on (the first one is reported), while an
 * error of a field's own decoder (aud, exp, iat, nbf) stops at once.
 */
export function decodeIdToken(payload: Readonly<Record<string, unknown>>): IdToken {
  let saved: ClaimsDecodeError | undefined;
  const save = (e: ClaimsDecodeError) => { saved ??= e; };
  const t = { issuer: '', audience: [] as string[], expiry: GO_ZERO_TIME, notBefore: undefined as UnixSeconds | undefined, claimNames: {} as Record<string, string>, claimSources: {} as Record<string, unknown> };
  for (const [key, v] of Object.entries(payload)) {
    const f = fieldOf(key);
    if (f === undefined) continue;
    const where = `idToken.${f}`;
    switch (f) {
      case 'iss': case 'sub': case 'nonce': case 'at_hash':
        if (typeof v === 'string') { if (f === 'iss') t.issuer = v; } else if (v !== null) save(typeError(v, 'string', where));
        break;
      case 'aud': t.audience = audience(v); break;
      case 'exp': t.expiry = jsonTime(v, where); break;
      case 'iat': jsonTime(v, where); break;
      case 'nbf': t.notBefore = v === null ? undefined : jsonTime(v, where); break;
      case '_claim_names':
        if (v === null) break;
        if (!isObject(v)) { save(typeError(v, 'map[string]string', where)); break; }
        for (const [name, src] of Object.entries(v)) {
          if (src === null || typeof src === 'string') t.claimNames[name] = src ?? '';
          else save(typeError(src, 'string', where));
        }
        break;
      case '_claim_sources':
        if (v === null) break;
        if (!isObject(v)) { save(typeError(v, 'map[string]oidc.claimSource', where)); break; }
        for (const [name, src] of Object.entries(v)) {
          if (src !== null && !isObject(src)) { save(typeError(src, 'oidc.claimSource', where)); continue; }
          for (const [k, x] of Object.entries(src ?? {})) {
            const sf = ['endpoint', 'access_token'].find((n) => fold(n) === fold(k));
            if (sf && x !== null && typeof x !== 'string') save(typeError(x, 'string', `claimSource.${f}.${sf}`));
          }
          t.claimSources[name] = src;
        }
        break;
    }
  }
  if (saved) throw saved;
  return t;
}

/** The `iss` a struct with only that field decodes to; undefined where Go's decoding fails. */
export function untrustedIssuer(payload: Readonly<Record<string, unknown>>): string | undefined {
  let iss = '';
  for (const [key, v] of Object.entries(payload)) {
    if (fieldOf(key) !== 'iss' || v === null) continue;
    if (typeof v !== 'string') return undefined;
    iss = v;
  }
  return iss;
}

const wrap = (s: bigint) => BigInt.asIntN(64, s + UNIX_TO_INTERNAL);

/** `time.Time.Before` of two whole-second times, with Go's int64 arithmetic (far futures wrap). */
export function goBefore(a: UnixSeconds, b: UnixSeconds): boolean {
  return wrap(a) < wrap(b);
}
