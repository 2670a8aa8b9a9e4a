// The flags every role has, as upstream's "Global flags" section: cobra's `-h, --help` (a bool)
// and component-base verflag's `--version`. They are parsed with the other flags, so `--version`
// after an unknown flag is that flag's error, `--vmodule --version` gives --vmodule its value, and
// `--version=false` runs normally. What they ask for is answered before anything starts, in
// cobra's order: help as soon as the flags parse, the version once the arguments are checked too.
import type { FlagSet } from './flags/types.js';
import { parseBool } from './flags/parse-value.js';
import { defaultGitVersion, dynamicVersionError } from './version.js';
import { refusedBeforeHelp, type ArgumentsCheck } from './positional-arguments.js';

export const GLOBAL_SECTION = 'Global flags';
export const HELP_FLAG = 'help';
export const VERSION_FLAG = 'version';

/** verflag's Set: `raw`, a dynamic version (`v...`), or strconv.ParseBool's grammar. */
function versionValueError(value: string, version: string): string | undefined {
  if (value === '' || value === 'raw') return undefined;
  if (value.startsWith('v')) return dynamicVersionError(value, defaultGitVersion(version));
  try { parseBool(value); return undefined; } catch (e) { return (e as Error).message; }
}

/** Declares --help and --version (`version` is plat's own version, for --version=vX.Y.Z's check). */
export function declareGlobalFlags(flags: FlagSet, command: string, version: string): void {
  flags.define({ name: HELP_FLAG, shorthand: 'h', type: 'bool', help: `help for ${command}`, section: GLOBAL_SECTION, owner: 'host', commandLineOnly: true });
  flags.define({
    name: VERSION_FLAG, type: 'string', typeName: 'version', noOptValue: 'true', section: GLOBAL_SECTION, owner: 'host', commandLineOnly: true,
    help: '--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version',
    validate: (v) => versionValueError(v as string, version),
  });
}

/** What the global flags ask to print instead of running: help, the version line, or the raw version. */
export type GlobalRequest = 'help' | 'version' | 'raw';

/**
 * After parsing: help whatever else was given (cobra checks it before the arguments; the kubelet's
 * check comes first, `check`), the version only when there is no (non-empty) positional argument,
 * since both refuse those first.
 */
export function globalRequest(flags: FlagSet, positional: readonly string[], check: ArgumentsCheck = 'cobra'): GlobalRequest | undefined {
  if (refusedBeforeHelp(check, positional)) return undefined;
  if (flags.get<boolean>(HELP_FLAG)) return 'help';
  if (positional.some((a) => a !== '')) return undefined;
  const v = flags.get<string>(VERSION_FLAG);
  if (v === 'raw') return 'raw';
  return v !== '' && !v.startsWith('v') && parseBool(v) ? 'version' : undefined;
}

/** The GitVersion --version=vX.Y.Z asked for (already checked), or undefined for the default. */
export function dynamicGitVersion(flags: FlagSet): string | undefined {
  const v = flags.get<string>(VERSION_FLAG);
  return v.startsWith('v') ? v : undefined;
}

/** Thrown by boot when the command line asks for help or the version: the caller prints it and exits 0. */
export class GlobalFlagRequest extends Error {
  constructor(readonly request: GlobalRequest) {
    super(`the command line asks for ${request}`);
    this.name = 'GlobalFlagRequest';
  }
}
