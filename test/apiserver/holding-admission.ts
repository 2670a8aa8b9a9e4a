// A validating admission plugin that holds every CSR whose name starts with "hold-" until
// release(): a write kept in flight, for the tests of what happens to it meanwhile. With
// `operation` only that operation's admission is held (DELETE: the CSRs can be created first).
import type { Plugin } from '../../core/plugin.js';

export interface Holding {
  plugin: Plugin;
  /** Lets every write held now go on. */
  release: () => void;
  /** How many writes have been held in all. */
  held: () => number;
  /** How many are held now, and the most ever held at once. */
  waiting: () => number;
  peak: () => number;
}

export function holdingPlugin(opts: { operation?: string } = {}): Holding {
  let waiting: (() => void)[] = [];
  let held = 0;
  let peak = 0;
  const plugin: Plugin = {
    name: 'HoldingAdmission',
    apply(host) {
      host.hooks.admitValidate.tapPromise('HoldingAdmission', async (req) => {
        if (req.resource !== 'certificatesigningrequests' || !req.name.startsWith('hold-')) return;
        if (opts.operation !== undefined && req.operation !== opts.operation) return;
        held++;
        await new Promise<void>((resolve) => { waiting.push(resolve); peak = Math.max(peak, waiting.length); });
      });
    },
  };
  return {
    plugin, held: () => held, waiting: () => waiting.length, peak: () => peak,
    release: () => { for (const w of waiting) w(); waiting = []; },
  };
}
