// Where each configuration value came from (the --config file, a drop-in, a flag), so that a
// validation error can name the file or flag that set the bad value. The last writer of a field,
// or of any part of it, wins.

export class ConfigSources {
  readonly #byPath = new Map<string, string>();

  record(paths: readonly string[], source: string): void {
    for (const p of paths) {
      this.#byPath.delete(p);
      this.#byPath.set(p, source);
    }
  }

  /** The source that last set `field` (a dotted path) or a part of it; undefined for a default. */
  of(field: string): string | undefined {
    let found: string | undefined;
    for (const [p, source] of this.#byPath) {
      if (p === field || p.startsWith(`${field}.`) || field.startsWith(`${p}.`)) found = source;
    }
    return found;
  }
}
