// The headers a client that impersonates sends with every request, as client-go's
// impersonatingRoundTripper adds them: Impersonate-User, Impersonate-Uid, one Impersonate-Group
// line per group and one Impersonate-Extra-<key> line per value, the key %-escaped so that any
// text survives as a header name (the API server unescapes it, core/server/impersonation.ts).
import type { Impersonation } from './kubeconfig-impersonation.js';

// Go's net/http token bytes (isTokenTable), less '%', which must itself be escaped so that the
// server's url.PathUnescape reads the key back.
const TOKEN_BYTE = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** client-go's headerKeyEscape: each UTF-8 byte that is no header token byte (or is '%') as %XX. */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += TOKEN_BYTE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

type Headers = Record<string, string | string[] | number | undefined>;

/**
 * A value as Go's transport writes it, its UTF-8 bytes (Node writes one byte a character, and
 * refuses characters past U+00FF). A request whose head holds such bytes must send its body as a
 * Buffer: node:http writes a head together with a string body in the body's encoding.
 */
const utf8Bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/**
 * `headers` with the impersonation's added. As client-go's, a request that already names a user to
 * impersonate (plat auth can-i's own question, say) is left as it is, whole.
 */
export function withImpersonation<H extends Headers>(headers: H, i: Impersonation | undefined): H {
  if (i === undefined || i.user === '') return headers;
  if (Object.keys(headers).some((k) => k.toLowerCase() === 'impersonate-user' && headers[k])) return headers;
  const out: Headers = { ...headers, 'Impersonate-User': utf8Bytes(i.user) };
  if (i.uid !== '') out['Impersonate-Uid'] = utf8Bytes(i.uid);
  if (i.groups.length > 0) out['Impersonate-Group'] = i.groups.map(utf8Bytes);
  for (const [key, values] of Object.entries(i.extra)) {
    if (values.length > 0) out[`Impersonate-Extra-${headerKeyEscape(key)}`] = values.map(utf8Bytes);
  }
  return out as H;
}
