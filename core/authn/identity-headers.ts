// Reading the identity a front proxy asserts in request headers, as upstream's headerrequest
// package reads them from Go's http.Header: the user name is the first non-empty value among the
// username headers (flag order); groups are every non-empty value of every group header; extra
// keys are the rest of a prefixed header name, lowercased, then %-unescaped.
import type { AuthenticationRequest, UserInfo } from './user.js';

export interface IdentityHeaders {
  readonly username: readonly string[];
  readonly uid: readonly string[];
  readonly group: readonly string[];
  readonly extraPrefixes: readonly string[];
}

/** Header name (lowercase) → its values, one per header line, in order of arrival. */
export type HeaderValues = ReadonlyMap<string, readonly string[]>;

/**
 * A header value as Go reads it: its bytes as the string, which a proxy naming `josé` (or
 * `kubectl --as josé`) sends as UTF-8 (Node hands each byte over as one character). Bytes that are
 * not UTF-8 become U+FFFD, what Go's JSON encoder writes for them anyway.
 */
export const goHeaderText = (raw: string): string => (/[\x80-\xff]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw);

/**
 * Each header's values one by one. From rawHeaders when the server gives them, because Node's
 * `headers` joins repeated lines with ", " and a group such as "a, b" would become two groups.
 */
export function headerValues(req: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>): HeaderValues {
  const out = new Map<string, string[]>();
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const text = goHeaderText(value);
    const list = out.get(key);
    if (list) list.push(text);
    else out.set(key, [text]);
  };
  if (req.rawHeaders) {
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) add(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    return out;
  }
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) add(name, v);
  }
  return out;
}

/** The asserted user, or undefined when no username header carries a value (upstream: no opinion). */
export function identityFromHeaders(values: HeaderValues, names: IdentityHeaders): UserInfo | undefined {
  const name = firstValue(values, names.username);
  if (!name) return undefined;
  const uid = firstValue(values, names.uid);
  const groups = names.group.flatMap((h) => (values.get(h.toLowerCase()) ?? []).filter((v) => v.length > 0));
  const extra = extraFromHeaders(values, names.extraPrefixes);
  return { name, ...(uid ? { uid } : {}), groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

/** Go's Header.Get over several names: the first value of the first header that has a non-empty one. */
function firstValue(values: HeaderValues, headerNames: readonly string[]): string | undefined {
  for (const h of headerNames) {
    const v = values.get(h.toLowerCase())?.[0];
    if (v) return v;
  }
  return undefined;
}

/**
 * Upstream's newExtra: prefixes in flag order, so a key's values keep that order; every value of a
 * matching header is kept, empty ones included.
 */
export function extraFromHeaders(values: HeaderValues, prefixes: readonly string[]): Record<string, string[]> {
  const extra: Record<string, string[]> = {};
  for (const prefix of prefixes) {
    const p = prefix.toLowerCase();
    for (const [header, vv] of values) {
      if (!header.startsWith(p)) continue;
      const key = unescapeExtraKey(header.slice(p.length));
      (extra[key] ??= []).push(...vv);
    }
  }
  return extra;
}

/**
 * Go's url.PathUnescape on the lowercased key; a malformed escape keeps the key as it came
 * ("always record extra strings, even if malformed/unencoded"). Bytes that are not UTF-8 become
 * U+FFFD, which is what Go's JSON encoder later writes for them anyway.
 */
export function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c === 0x25) {
      const hex = encoded.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return encoded;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(encoded[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
