// A webhook's HTTP answer as client-go's Request.Do(ctx).Into(review) reads it: a status outside
// 200–206 is an error (a Status body with `status: Failure` in the server's words, else
// NewGenericServerResponse's, with the body's text only when it is text/* or untyped); an empty
// 2xx body is `0-length response ...`; any other body is decoded, and what the version/kind
// sniffing of apimachinery's JSON serializer refuses is said in encoding/json's words.
import { goJsonSyntaxError } from '../../core/api/go-json-syntax.js';
import { interpretError } from '../../core/api/go-decode-errors.js';
import { responseError } from '../../core/client/response-error.js';
import { parseGroupVersion } from '../../core/api/group-version.js';

/** The webhook client's own Content-Type, which client-go assumes when the answer has none. */
const CLIENT_CONTENT_TYPE = 'application/json';

export type Answer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

export function readAnswer(code: number, contentType: string | undefined, body: Buffer): Answer {
  const text = body.toString('utf8');
  if (code < 200 || code > 206) {
    // No resource on the webhook's request: the message has no ` (post <resource>)` suffix.
    return { ok: false, reason: responseError(code, contentType, text, 'POST', '', { anyMedia: true }).message };
  }
  if (body.length === 0) return { ok: false, reason: `0-length response with status code: ${code} and content type: ${contentType || CLIENT_CONTENT_TYPE}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // A body starting with `{` goes to the JSON serializer; anything else to the YAML one, whose
    // errors plat does not reproduce (JSON.parse's words are kept).
    const syntax = /^\s*\{/.test(text) ? goJsonSyntaxError(body) : undefined;
    return { ok: false, reason: `couldn't get version/kind; json parse error: ${syntax ?? (e as Error).message}` };
  }
  const kindError = interpretError(value);
  if (kindError !== undefined) return { ok: false, reason: `couldn't get version/kind; json parse error: ${kindError}` };
  const apiVersion = (value as { apiVersion?: unknown } | null)?.apiVersion;
  // schema.ParseGroupVersion, which Interpret calls on the version it found.
  if (typeof apiVersion === 'string' && parseGroupVersion(apiVersion) === undefined) return { ok: false, reason: `unexpected GroupVersion string: ${apiVersion}` };
  return { ok: true, value };
}
