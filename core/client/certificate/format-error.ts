// client-go csr's formatError: a Status keeps its code and reason with the message wrapped; any
// other error is wrapped as Go prints it (a request that got no answer as url.Error's text).
import { ApiError } from '../rest-client.js';
import { goUrlErrorText } from '../go-url-error.js';

/** `prefix: <error>`; `method` is the request's, for an error that names the URL it went to. */
export function formatCsrError(prefix: string, e: unknown, method?: string): Error {
  if (e instanceof ApiError) return new ApiError(e.code, e.reason, `${prefix}: ${e.message}`, e.body);
  const err = e as NodeJS.ErrnoException & { url?: unknown };
  if (method && typeof err?.url === 'string') return new Error(`${prefix}: ${goUrlErrorText(method, new URL(err.url), err)}`, { cause: e });
  return new Error(`${prefix}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}
