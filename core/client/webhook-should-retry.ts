// k8s.io/apiserver/pkg/util/webhook DefaultShouldRetry for an answered error, through
// apimachinery's predicates: IsInternalError, IsTimeout and IsTooManyRequests read the error's
// Status (a reason none of apimachinery knows falls back to its code: 500, 504, 429), and
// SuggestsClientDelay retries a Status with details that is ServerTimeout or asks for a delay. So
// a 502 without a Status is retried (NewGenericServerResponse calls every 5xx it has no word for
// InternalError), a 503 is not, and a Status body decides by its own reason rather than the HTTP code.
import type { AnsweredStatus } from './webhook-answer.js';

/** apimachinery's knownReasons: the reasons the predicates trust over the code. */
const KNOWN_REASONS = new Set([
  'Unauthorized', 'Forbidden', 'NotFound', 'AlreadyExists', 'Conflict', 'Gone', 'Invalid', 'ServerTimeout',
  'StoreReadError', 'Timeout', 'TooManyRequests', 'BadRequest', 'MethodNotAllowed', 'NotAcceptable',
  'RequestEntityTooLarge', 'UnsupportedMediaType', 'InternalError', 'Expired', 'ServiceUnavailable',
]);

export function shouldRetryAnswer(s: AnsweredStatus): boolean {
  const unknown = !KNOWN_REASONS.has(s.reason);
  if (s.reason === 'InternalError' || (unknown && s.code === 500)) return true;
  if (s.reason === 'Timeout' || (unknown && s.code === 504)) return true;
  if (s.reason === 'TooManyRequests' || s.code === 429) return true;
  return s.hasDetails && (s.reason === 'ServerTimeout' || s.retryAfterSeconds > 0);
}
