// What a plugin threw or rejected with, as text: plugins may throw anything, and an object must be
// shown as JSON (`{"code":7}`), not as "[object Object]".

/**
 * tapable's wording when a tapPromise tap rejects with a falsy value (it cannot pass on a falsy
 * error): its own text, which says nothing to an operator or a client.
 */
const TAPABLE_FALSY = /^Tap function \(tapPromise\) rejects "(.*)" value$/s;

/**
 * The value a plugin threw when it is one that says nothing (undefined, null, false, 0, ''),
 * thrown as is or rejected (which tapable wraps); undefined otherwise.
 */
export function emptyThrow(e: unknown): string | undefined {
  if (!e) return e === '' ? "''" : String(e);
  if (e instanceof Error && Object.getPrototypeOf(e) === Error.prototype) {
    const m = TAPABLE_FALSY.exec(e.message);
    if (m) return m[1] === '' ? "''" : m[1];
  }
  return undefined;
}

export function thrownMessage(e: unknown): string {
  const empty = emptyThrow(e);
  if (empty !== undefined) return `no reason given (the plugin threw ${empty}, not an Error)`;
  if (e instanceof Error) return e.message;
  if (typeof e !== 'object' || e === null) return String(e);
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}
