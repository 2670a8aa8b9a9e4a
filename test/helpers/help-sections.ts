// A --help text read back as its sections and the flags each lists, in printed order.

export interface HelpSection { readonly section: string; readonly flags: string[] }

export function helpSections(help: string): HelpSection[] {
  const out: HelpSection[] = [];
  for (const line of help.split('\n')) {
    const heading = /^(\S.*):$/.exec(line);
    if (heading !== null) {
      if (heading[1] !== 'Usage') out.push({ section: heading[1]!, flags: [] });
      continue;
    }
    const flag = /^ {2}(?:-\S, |    )--([A-Za-z0-9.-]+)/.exec(line);
    if (flag !== null) out.at(-1)?.flags.push(flag[1]!);
  }
  return out;
}
