// The authorizer chain: which authorizers run, in which order. From --authorization-mode, or from
// the --authorization-config file when its plugin has read it (setAuthorizerChain, at configure
// stage -100, before the authorizer plugins look). An authorizer plugin taps `authorize` at the
// stage of its entry's index, so the hook runs the chain in order: the first allow or deny
// decides, undefined (no opinion) passes on.
import type { FlagSet } from '../flags/types.js';
import type { Host } from '../host.js';

export const AUTHORIZATION_MODE_FLAG = 'authorization-mode';
/** Capability kind: the authorizer types the loaded plugins implement. */
export const AUTHORIZATION_MODE_KIND = 'authorization-mode';

export interface AuthorizerEntry {
  /** AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node. */
  readonly type: string;
  /** Unique in the chain; the mode name for --authorization-mode entries. */
  readonly name: string;
  /** The typed settings of a configuration-file entry (a Webhook's), else undefined. */
  readonly settings?: unknown;
}

const chains = new WeakMap<Host, readonly AuthorizerEntry[]>();

/** Called by the plugin that reads --authorization-config. */
export function setAuthorizerChain(host: Host, entries: readonly AuthorizerEntry[]): void {
  chains.set(host, entries);
}

/** True when the chain is a configuration file's rather than --authorization-mode's. */
export function isChainFromFile(host: Host): boolean {
  return chains.has(host);
}

export function authorizerChain(host: Host, flags: FlagSet): readonly AuthorizerEntry[] {
  const fromFile = chains.get(host);
  if (fromFile) return fromFile;
  const modes = flags.has(AUTHORIZATION_MODE_FLAG) ? flags.get<string[]>(AUTHORIZATION_MODE_FLAG) : [];
  return modes.map((type) => ({ type, name: type }));
}

/** Entries of one type with their tap stages (a config file may list several Webhooks). */
export function chainEntries(host: Host, flags: FlagSet, type: string): { entry: AuthorizerEntry; stage: number }[] {
  return authorizerChain(host, flags).flatMap((entry, stage) => (entry.type === type ? [{ entry, stage }] : []));
}

/** The tap stage of the first entry of `type`, or undefined when the chain does not list it. */
export function modeStage(host: Host, flags: FlagSet, type: string): number | undefined {
  return chainEntries(host, flags, type)[0]?.stage;
}
