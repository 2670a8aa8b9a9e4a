// client-go csr's formatError: a Status keeps its code and reason with the message wrapped; any
// other error is wrapped as Go prints it (a request that got no answer as url.Error's text).
import { ApiError } from '../rest-client.js';
import { goClientErrorText } from '../go-url-error.js';

/** `prefix: <error>`; with `asUrlError`, a request that got no answer reads as Go's url.Error. */
export function formatCsrError(prefix: string, e: unknown, asUrlError = false): Error {
  if (e instanceof ApiError) return new ApiError(e.code, e.reason, `${prefix}: ${e.message}`, e.body);
  return new Error(`${prefix}: ${asUrlError ? goClientErrorText(e) : e instanceof Error ? e.message : String(e)}`, { cause: e });
}
