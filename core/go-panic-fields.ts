// The fields of client-go's `Observed a panic` line (apimachinery runtime.logPanic, v1.30 on) for
// what a handler threw: a string as it is (`panic`); anything else as its %v (`panic`) and its
// Go-syntax %#v (`panicGoValue`), which names the type, so a TypeError and a plugin's own error
// class read apart. JavaScript has no %#v: an Error is written as Go writes a struct, its type
// then its fields (`TypeError{message:"..."}`, own fields such as `code` after it), anything
// else as util.inspect shows it. `stacktrace` is the thrown Error's stack; for a thrown non-Error,
// which has none, the stack where it was caught, as upstream's is the stack where it recovered.
import { inspect } from 'node:util';

const show = (v: unknown): string => typeof v === 'string' ? JSON.stringify(v) : inspect(v, { breakLength: Infinity, depth: 2 });

function goValue(e: unknown): string {
  if (!(e instanceof Error)) return show(e);
  let own: [string, unknown][] = [];
  try { own = Object.entries(e); } catch { /* a field whose getter throws: the message alone */ }
  const fields = [['message', e.message] as const, ...own].map(([k, v]) => `${k}:${show(v)}`);
  return `${e.constructor?.name || e.name}{${fields.join(', ')}}`;
}

export function panicFields(e: unknown): Record<string, string> {
  // Called in the informer's catch: a throw from here (a field's getter that throws, a revoked
  // Proxy) would end the list or watch the catch is there to protect.
  try {
    const stacktrace = e instanceof Error ? e.stack ?? '' : new Error('caught here').stack ?? '';
    if (typeof e === 'string') return { panic: e, stacktrace };
    const value = e instanceof Error ? e.message : typeof e === 'object' && e !== null ? show(e) : String(e);
    return { panic: value, panicGoValue: goValue(e), stacktrace };
  } catch {
    const value = inspect(e, { breakLength: Infinity, depth: 0 });
    return { panic: value, panicGoValue: value, stacktrace: new Error('caught here').stack ?? '' };
  }
}
