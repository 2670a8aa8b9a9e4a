// A webhook's HTTP answer as client-go's Request.Do(ctx).Into(review) reads it: a status outside
// 200–206 is an error (a Status body with `status: Failure` in the server's words, else
// NewGenericServerResponse's, with the body's text only when it is text/* or untyped); an empty
// 2xx body is `0-length response ...`; any other body is decoded, and what the version/kind
// sniffing of apimachinery's JSON serializer refuses is said in encoding/json's words. Shared by
// every webhook client (token review, authorization, admission): upstream's all read the answer so.
import { goJsonSyntaxError } from '../api/go-json-syntax.js';
import { interpretError } from '../api/go-decode-errors.js';
import { responseError } from './response-error.js';
import { parseGroupVersion } from '../api/group-version.js';

/** The webhook client's own Content-Type, which client-go assumes when the answer has none. */
const CLIENT_CONTENT_TYPE = 'application/json';

/** What apimachinery's error predicates read of an answered error: the Status's reason, code and details. */
export interface AnsweredStatus {
  readonly reason: string;
  readonly code: number;
  readonly hasDetails: boolean;
  readonly retryAfterSeconds: number;
}

export type Answer =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string; readonly status?: AnsweredStatus };

/**
 * `retryAfterSeconds`: the answer's Retry-After header as whole seconds (0 for none), which
 * NewGenericServerResponse keeps in the error's details; a Status of the server's own has its own.
 */
export function readAnswer(code: number, contentType: string | undefined, body: Buffer, retryAfterSeconds = 0): Answer {
  const text = body.toString('utf8');
  if (code < 200 || code > 206) {
    // No resource on the webhook's request: the message has no ` (post <resource>)` suffix.
    const e = responseError(code, contentType, text, 'POST', '', { anyMedia: true });
    return { ok: false, reason: e.message, status: e.body === undefined ? { reason: e.reason, code, hasDetails: true, retryAfterSeconds } : statusOf(e.body) };
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

/** errors.FromObject keeps the Status as written: its code (0 when none) and details. */
function statusOf(body: unknown): AnsweredStatus {
  const s = body as { reason?: unknown; code?: unknown; details?: unknown };
  const details = typeof s.details === 'object' && s.details !== null ? s.details as { retryAfterSeconds?: unknown } : undefined;
  const after = details?.retryAfterSeconds;
  return {
    reason: typeof s.reason === 'string' ? s.reason : '',
    code: typeof s.code === 'number' ? s.code : 0,
    hasDetails: details !== undefined,
    retryAfterSeconds: typeof after === 'number' ? after : 0,
  };
}
