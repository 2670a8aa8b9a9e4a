// An admission tap refuses by throwing; what it returns is not read. A plugin written as a webhook
// is (`return { allowed: false }`, `return false`) therefore admitted everything without a word;
// now the first answer of each such tap is logged as a warning, once, naming its plugin.
import type * as tapable from 'tapable';
import { aroundTap } from '../around-tap.js';
import type { Logger } from '../log.js';
import { ownerOf } from '../tap-owners.js';

type AnyTap = tapable.AsyncSeriesHook<[object]>['taps'][number];
interface Interceptable { intercept(interceptor: { register: (tap: AnyTap) => AnyTap }): void }

const watched = new WeakSet<Interceptable>();

/** Warns, once per tap, when a tap of `hook` (an admission phase) answers something. */
export function warnAnsweringTaps(hook: Interceptable, phase: string, log: Logger): void {
  if (watched.has(hook)) return;
  watched.add(hook);
  hook.intercept({
    register: (tap) => {
      let warned = false;
      return aroundTap(tap as AnyTap & { type: 'sync' | 'async' | 'promise'; fn: unknown }, {
        answer: (_args, result) => {
          if (result !== undefined && !warned) {
            warned = true;
            const owner = ownerOf(tap);
            log.warn(`admission plugin "${owner?.plugin ?? tap.name}"${owner?.tap ? ` (tap "${owner.tap}")` : ''} answered ${result === null ? 'null' : typeof result === 'object' ? 'an object' : `a ${typeof result}`} from its ${phase} tap, which is not read: an admission tap refuses a request by throwing (see Writing plugins)`);
          }
          return undefined;
        },
        failed: (_args, err) => { throw err; },
      });
    },
  });
}
