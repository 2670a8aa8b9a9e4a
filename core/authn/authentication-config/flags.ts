// The flag names both consumers of the file look at, and what "given explicitly" means for them.
import type { FlagSet } from '../../flags/types.js';

export const AUTHENTICATION_CONFIG_FLAG = 'authentication-config';
export const ANONYMOUS_AUTH_FLAG = 'anonymous-auth';

/**
 * True when the operator set `name` (command line or config file). A role profile's own default
 * (`plat all` turns anonymous access off that way) is not the operator's choice and does not
 * count, as upstream counts only flags given on the command line.
 */
export function explicitlySet(flags: FlagSet, name: string): boolean {
  return flags.isSetByOperator(name);
}
