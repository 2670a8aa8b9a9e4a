// A tap on a hook the running command never calls does nothing, and nothing said so: a signer
// loaded into `plat apiserver` (the controller manager signs), a node-agent subsystem into `plat
// all`. What a command calls is derived from its plugins (HOST_CALLED plus each plugin's `calls`);
// after configure (plugins tap in apply and in configure) every other tap is named, with the
// commands that do call its hook. A warning, not a refusal: one config file may serve several
// commands.
import { HOST_CALLED, type HookName, type Hooks } from './hooks.js';
import type { Logger } from './log.js';
import type { Plugin } from './plugin.js';
import { tappedSigners } from './signing.js';

/** A command and the plugins it runs (a Profile is one). */
export interface Command { readonly role: string; readonly plugins: readonly Plugin[] }

export interface UncalledTap {
  readonly tap: string;
  readonly hook: HookName;
  /** As a plugin writes it: `hooks.nodeAgent`, `hooks.sign.for("example.com/x")`. */
  readonly where: string;
}

/** The hooks a command of these plugins calls. */
export function hooksCalled(plugins: readonly Plugin[]): Set<HookName> {
  return new Set([...HOST_CALLED, ...plugins.flatMap((p) => p.calls ?? [])]);
}

/** Each tap (by name, once per hook) on a hook outside `called`. */
export function uncalledTaps(hooks: Hooks, called: ReadonlySet<HookName>): UncalledTap[] {
  const out: UncalledTap[] = [];
  for (const hook of Object.keys(hooks) as HookName[]) {
    if (called.has(hook)) continue;
    const tapped = hook === 'sign'
      ? tappedSigners(hooks.sign).map((signer) => ({ where: `hooks.sign.for(${JSON.stringify(signer)})`, taps: hooks.sign.get(signer)?.taps ?? [] }))
      : [{ where: `hooks.${hook}`, taps: hooks[hook].taps }];
    for (const { where, taps } of tapped) {
      for (const tap of new Set(taps.map((t) => t.name))) out.push({ tap, hook, where });
    }
  }
  return out;
}

/**
 * Logs one warning per uncalled tap of `command`, naming those of `commands` that call its hook
 * (without `commands`, as in a test's boot, it names none).
 */
export function warnUncalledTaps(hooks: Hooks, command: Command, commands: readonly Command[], logger: Logger): void {
  const called = hooksCalled(command.plugins);
  for (const { tap, hook, where } of uncalledTaps(hooks, called)) {
    const callers = commands.filter((c) => c.role !== command.role && hooksCalled(c.plugins).has(hook)).map((c) => `plat ${c.role}`);
    const elsewhere = callers.length > 0 ? ` (it is called by ${callers.join(' and ')})` : commands.length > 0 ? ' (no plat command calls it yet)' : '';
    logger.warn(`plugin ${JSON.stringify(tap)} taps ${where}, which plat ${command.role} never calls${elsewhere}: the tap does nothing here`);
  }
}
