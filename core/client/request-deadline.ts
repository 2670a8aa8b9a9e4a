// The timeout of a request, retries included (client-go's context.WithTimeout in request()):
// when it passes, the attempt in flight is abandoned and the request fails with Go's
// `context deadline exceeded`, which kubectl shows as `Unable to connect to the server: ...`.

export interface RequestDeadline {
  readonly ms: number;
  /** Aborts when the deadline passes or the caller's signal does. */
  readonly signal: AbortSignal;
  expired(): boolean;
  /** Go's url.Error for the deadline: its URL names the request, as the REST client's other failures. */
  error(url: URL): Error;
  clear(): void;
}

export function requestDeadline(ms: number | undefined, caller: AbortSignal | undefined): RequestDeadline | undefined {
  if (!ms || ms <= 0) return undefined;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new Error('context deadline exceeded')), ms);
  const signal = caller ? AbortSignal.any([caller, timer.signal]) : timer.signal;
  return {
    ms, signal,
    expired: () => timer.signal.aborted && !caller?.aborted,
    error: (url) => Object.assign(new Error('context deadline exceeded'), { url: url.href }),
    clear: () => clearTimeout(handle),
  };
}
