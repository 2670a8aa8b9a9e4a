// Continue tokens in apiserver's format: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key, relative to the resource prefix>"},
// decoded as storage.DecodeContinue does, its errors in its words behind etcd3's
// "invalid continue token: " (400).
import { goJsonSyntaxError } from '../api/go-json-syntax.js';
import { errors } from '../api/errors.js';
import { goPathClean } from '../go-path-clean.js';
import { goJsonType } from '../api/patch/json-value.js';

/** revision < 0: continue at the latest revision (the token handed out once the original was compacted). */
export interface ContinueToken { revision: number; start: string }

/** The revision a token carries to say "continue at the latest revision" (etcd3's handleCompactedErrorForPaging). */
export const LATEST = -1;

export function encodeContinue(revision: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: revision, start })).toString('base64url');
}

const URL_ALPHABET = /[A-Za-z0-9_-]/;

/** Where base64.RawURLEncoding.DecodeString fails (CorruptInputError's offset), or -1. */
function rawUrlBase64ErrorIndex(s: string): number {
  let inQuantum = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    // Go skips newlines anywhere in the input.
    if (c === '\n' || c === '\r') continue;
    if (!URL_ALPHABET.test(c)) return i;
    inQuantum = (inQuantum + 1) % 4;
  }
  // A lone character in the last quantum cannot make a byte: Go names its offset.
  if (inQuantum !== 1) return -1;
  let i = s.length - 1;
  while (s[i] === '\n' || s[i] === '\r') i--;
  return i;
}

const invalid = (why: string) => errors.badRequest(`invalid continue token: continue key is not valid${why}`);

/** json.Unmarshal into storage's continueToken: the first type error, as encoding/json words it. */
function unmarshal(data: Buffer): { v: string; rv: number; start: string } {
  const syntax = goJsonSyntaxError(data);
  if (syntax !== undefined) throw invalid(`: ${syntax}`);
  const doc: unknown = JSON.parse(data.toString('utf8'));
  const out = { v: '', rv: 0, start: '' };
  if (doc === null) return out;
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw invalid(`: json: cannot unmarshal ${goJsonType(doc)} into Go value of type storage.continueToken`);
  }
  const fields = { v: 'string', rv: 'int64', start: 'string' } as const;
  let firstError: string | undefined;
  for (const [key, value] of Object.entries(doc)) {
    // encoding/json matches field names without regard to case.
    const field = (Object.keys(fields) as (keyof typeof fields)[]).find((f) => f === key.toLowerCase());
    if (field === undefined || value === null) continue;
    const type = fields[field];
    const fits = type === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isSafeInteger(value);
    if (!fits) {
      const what = typeof value === 'number' ? `number ${String(value)}` : goJsonType(value);
      firstError ??= `json: cannot unmarshal ${what} into Go struct field continueToken.${field} of type ${type}`;
      continue;
    }
    (out as Record<string, unknown>)[field] = value;
  }
  if (firstError !== undefined) throw invalid(`: ${firstError}`);
  return out;
}

export function decodeContinue(token: string): ContinueToken {
  const at = rawUrlBase64ErrorIndex(token);
  if (at >= 0) throw invalid(`: illegal base64 data at input byte ${at}`);
  const c = unmarshal(Buffer.from(token.replace(/[\r\n]/g, ''), 'base64url'));
  if (c.v !== 'meta.k8s.io/v1') throw invalid(`: server does not recognize this encoded version ${c.v}`);
  if (c.rv === 0) throw invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (c.start.length === 0) throw invalid(': encoded start key empty (version meta.k8s.io/v1)');
  // Against path traversal: the start key may not reach above the resource's prefix.
  const key = c.start.startsWith('/') ? c.start : `/${c.start}`;
  if (goPathClean(key) !== key) throw invalid(`: ${c.start}`);
  return { revision: c.rv, start: key.slice(1) };
}
