// The logging flags of the spec's tables besides -v, owned by the host where no plugin declares its
// own (the node agent does, through its configuration file): --vmodule sets per-logger levels,
// --logging-format accepts the one format the spec allows (with upstream's message), and the alpha
// stream options are checked as component-base checks them with LoggingAlphaOptions off (plat
// refuses --feature-gates=LoggingAlphaOptions=true: it implements neither option). --log-flush-frequency needs no work: plat writes each line as it is
// logged (stderr is synchronous for files and pipes), so no line waits for a flush.
import type { FlagSet, FlagSpec } from './flags/types.js';
import { parseVModule } from './log-vmodule.js';
import type { Logger } from './log.js';

const OWNER = 'host';

const alphaOff = (field: string) => `${field}: Forbidden: Feature LoggingAlphaOptions is disabled`;

const CHECKS: Readonly<Record<string, FlagSpec['validate'] | null>> = {
  vmodule: (v) => {
    try { parseVModule(v as string); return undefined; } catch (e) { return (e as Error).message; }
  },
  // component-base's logs validation, with its text: an empty format is no more supported than json.
  'logging-format': (v) => (v === 'text' ? undefined : `format: Invalid value: ${JSON.stringify(v)}: Unsupported log format`),
  'log-flush-frequency': null,
  'log-text-split-stream': (v) => (v === true ? alphaOff('options.text.splitStream') : undefined),
  'log-text-info-buffer-size': (v) => (v !== undefined && v !== 0 ? alphaOff('options.text.infoBufferSize') : undefined),
};

/** Declares the catalogue's logging flags that no plugin declared. */
export function declareLoggingFlags(flags: FlagSet, catalogue: readonly FlagSpec[]): void {
  for (const spec of catalogue) {
    const check = CHECKS[spec.name];
    if (check === undefined || flags.has(spec.name)) continue;
    // The check says what the catalogue's enum would, in upstream's words.
    const { enum: _listed, ...rest } = spec;
    flags.define(check ? { ...rest, owner: OWNER, validate: check } : { ...spec, owner: OWNER });
  }
}

/** Applies the host-owned logging flags to the logger tree (after parsing). */
export function applyLoggingFlags(flags: FlagSet, logger: Logger): void {
  const owned = (name: string) => flags.specs().some((s) => s.name === name && s.owner === OWNER);
  if (owned('vmodule')) logger.setVModule?.(parseVModule(flags.get<string | undefined>('vmodule') ?? ''));
}
