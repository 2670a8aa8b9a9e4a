// A logger's lines kept for a test, and the `err` of an error line (plat's utilruntime.HandleError
// lines), with a bounded wait for one.

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
