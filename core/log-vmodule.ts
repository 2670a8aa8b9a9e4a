// --vmodule for plat's loggers. klog matches each pattern against the Go file of the V() call
// (without ".go"; against the full path only when the pattern has a "/"), first match wins, and
// the file's level only ever raises the global -v. plat's log lines name a logger where klog names
// a file (`plat/controller-manager/csrsigning]`), so the logger name takes the file's place: a
// pattern without "/" matches its last component, one with "/" the whole name.

export interface VModuleRule { readonly filePattern: string; readonly verbosity: number }

const MAX_VERBOSITY = 2 ** 31 - 1;

/** component-base's VModuleConfiguration.Set: `pattern=N,...`, N an unsigned 32-bit level. */
export function parseVModule(value: string): VModuleRule[] {
  const out: VModuleRule[] = [];
  for (const pat of value.split(',').filter((p) => p.length > 0)) {
    const patLev = pat.split('=');
    if (patLev.length !== 2 || patLev[0] === '' || patLev[1] === '') throw new Error(`"${pat}" does not have the pattern=N format`);
    const level = patLev[1]!;
    if (!/^\d+$/.test(level)) throw new Error(`parsing verbosity in "${pat}": strconv.ParseUint: parsing "${level}": invalid syntax`);
    const v = Number(level);
    if (v > MAX_VERBOSITY) throw new Error(`parsing verbosity in "${pat}": strconv.ParseUint: parsing "${level}": value out of range`);
    out.push({ filePattern: patLev[0]!, verbosity: v });
  }
  return out;
}

/**
 * Go's path/filepath.Match as a RegExp (`*` and `?` never cross "/", `[...]` classes with `^`
 * negation and ranges, `\\` escapes), or null for a malformed pattern, which klog lets match nothing.
 */
export function globToRegExp(pattern: string): RegExp | null {
  let re = '';
  let i = 0;
  // Go's getEsc: one class character, escaped or not; '-' and ']' may not start one.
  const classChar = (): string | null => {
    const c = pattern[i];
    if (c === undefined || c === '-' || c === ']') return null;
    if (c === '\\') { i++; if (i >= pattern.length) return null; }
    return pattern[i++]!;
  };
  while (i < pattern.length) {
    const c = pattern[i++]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i >= pattern.length) return null;
      re += escape(pattern[i++]!);
    } else if (c === '[') {
      let cls = '';
      const negated = pattern[i] === '^';
      if (negated) i++;
      let items = 0;
      for (;;) {
        if (i >= pattern.length) return null;
        if (pattern[i] === ']' && items > 0) { i++; break; }
        const lo = classChar();
        if (lo === null) return null;
        let hi = lo;
        if (pattern[i] === '-') {
          i++;
          const h = classChar();
          if (h === null) return null;
          hi = h;
        }
        // Go never matches an inverted range; leaving it out of the class does the same.
        if (lo <= hi) cls += lo === hi ? escape(lo) : `${escape(lo)}-${escape(hi)}`;
        items++;
      }
      re += negated ? `[^${cls}]` : cls === '' ? '(?!)' : `[${cls}]`;
    } else re += escape(c);
  }
  return new RegExp(`^${re}$`);
}

const escape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** The level the first matching rule gives `loggerName`, or undefined when none matches. */
export function vmoduleLevel(rules: readonly VModuleRule[], loggerName: string): number | undefined {
  const last = loggerName.slice(loggerName.lastIndexOf('/') + 1);
  for (const rule of rules) {
    const subject = rule.filePattern.includes('/') ? loggerName : last;
    if (globToRegExp(rule.filePattern)?.test(subject)) return rule.verbosity;
  }
  return undefined;
}
