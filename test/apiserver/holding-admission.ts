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

/** A logger's lines, and a bounded wait for one. */
export function logLines(): { lines: string[]; write: (line: string) => void; errText: (match: string) => string | undefined; waitFor: (match: string, what: string) => Promise<string> } {
  const lines: string[] = [];
  // The `err` field of an error line (plat's utilruntime.HandleError lines put it last).
  const errText = (match: string) => {
    const line = lines.find((l) => l.startsWith('E') && l.includes(match));
    return line === undefined ? undefined : JSON.parse(line.slice(line.indexOf(' err=') + 5)) as string;
  };
  const waitFor = async (match: string, what: string) => {
    for (let i = 0; i < 100; i++) {
      const found = errText(match);
      if (found !== undefined) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no log line for ${what} within 5 s:\n${lines.join('\n')}`);
  };
  return { lines, write: (line) => lines.push(line), errText, waitFor };
}
