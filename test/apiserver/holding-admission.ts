// A validating admission plugin that holds every CSR whose name starts with "hold-" until
// release(): a write kept in flight, for the tests of what happens to it meanwhile.
import type { Plugin } from '../../core/plugin.js';

export function holdingPlugin(): { plugin: Plugin; release: () => void; held: () => number } {
  let waiting: (() => void)[] = [];
  let held = 0;
  const plugin: Plugin = {
    name: 'HoldingAdmission',
    apply(host) {
      host.hooks.admitValidate.tapPromise('HoldingAdmission', async (req) => {
        if (req.resource !== 'certificatesigningrequests' || !req.name.startsWith('hold-')) return;
        held++;
        await new Promise<void>((resolve) => waiting.push(resolve));
      });
    },
  };
  return { plugin, held: () => held, release: () => { for (const w of waiting) w(); waiting = []; } };
}
