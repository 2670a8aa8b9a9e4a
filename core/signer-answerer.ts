// Which tap of a signerName's hook answered a call: several plugins may tap one signerName, and a
// signer that answers something the controller refuses (garbage, a certificate for another key)
// must be named in the error, or its author cannot tell it from the others. Each tap is wrapped
// when it registers; an answer other than undefined records the tap's name against the request
// object of that call.
/** tapable's FullTap, which it does not export. */
interface FullTap { name: string; type: 'sync' | 'async' | 'promise'; fn: Function; stage?: number; before?: string }

const answerers = new WeakMap<object, string>();

/** A register interceptor: `tap` with its answers recorded. */
export function recordAnswers<T extends FullTap>(tap: T): T {
  const fn = tap.fn;
  const note = (request: unknown, result: unknown) => {
    if (result !== undefined && typeof request === 'object' && request !== null) answerers.set(request, tap.name);
  };
  switch (tap.type) {
    case 'sync':
      return { ...tap, fn: (request: unknown) => { const r: unknown = fn(request); note(request, r); return r; } };
    case 'promise':
      return { ...tap, fn: (request: unknown) => {
        const r: unknown = fn(request);
        // Not a promise: handed on as it is, for tapable to refuse.
        if (typeof (r as { then?: unknown } | null)?.then !== 'function') return r;
        return (r as Promise<unknown>).then((v) => { note(request, v); return v; });
      } };
    case 'async':
      return { ...tap, fn: (request: unknown, callback: (e?: unknown, r?: unknown) => void) =>
        fn(request, (e: unknown, r: unknown) => { if (!e) note(request, r); callback(e, r); }) };
  }
}

/** The name of the tap that answered the call made with `request`, if one did. */
export function answererOf(request: object): string | undefined {
  return answerers.get(request);
}
