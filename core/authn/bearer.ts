// The bearer token of a request, read as upstream's bearertoken authenticator reads it: the first
// Authorization value, trimmed; scheme "bearer" in any case; the token is the text up to the next
// space (anything after it is ignored, as upstream ignores parts[2]). Empty tokens are no
// credential at all, so the request can still be anonymous.
import type { AuthenticationRequest } from './user.js';

/**
 * What upstream's bearer token authenticator says of a token that no token authenticator accepted
 * and none found an error in (a token authenticator's error is said instead).
 */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

const ASCII_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/** Upstream's invalidTokenWithSpaceWarning: `Bearer  <token>` is no credential, and the client is told. */
export const EXTRA_SPACE_WARNING = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

function bearerParts(headers: AuthenticationRequest['headers']): string[] | undefined {
  const raw = headers['authorization'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const auth = value.replace(ASCII_SPACE, '');
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts;
}

export function bearerToken(headers: AuthenticationRequest['headers']): string | undefined {
  const token = bearerParts(headers)?.[1];
  return token === '' ? undefined : token;
}

/** The token the token authenticators take: a TokenReview's own, else the Authorization header's bearer token. */
export function requestToken(req: Pick<AuthenticationRequest, 'headers' | 'token'>): string | undefined {
  if (req.token !== undefined) return req.token === '' ? undefined : req.token;
  return bearerToken(req.headers);
}

/**
 * The token as the text upstream's JWT parsers read: go-jose's stripWhitespace ranges over the
 * runes of a Go string, which holds a header's bytes. Node hands a header over as Latin-1, so its
 * bytes are read again as UTF-8 here, an invalid byte becoming U+FFFD as in Go's range (never a
 * space, never base64); read as Latin-1, a lone 0xA0 or 0x85 byte would be stripped as U+00A0 or
 * U+0085 where go-jose refuses the token, and UTF-8's U+00A0 kept where go-jose strips it. A
 * TokenReview's token is text already.
 */
export function goTokenText(req: Pick<AuthenticationRequest, 'token'>, token: string): string {
  return req.token !== undefined ? token : Buffer.from(token, 'latin1').toString('utf8');
}

/** An empty token followed by more text: a space too many after `Bearer` (strings.SplitN(auth, " ", 3)). */
export function hasExtraSpaceBeforeToken(headers: AuthenticationRequest['headers']): boolean {
  const parts = bearerParts(headers);
  return parts !== undefined && parts[1] === '' && parts.length > 2;
}
