// A tap on a hook the running command never calls does nothing, and nothing said so: a signer
// loaded into `plat apiserver` (the controller manager signs), a node-agent subsystem into `plat
// all`. What a command calls is derived from its plugins (HOST_CALLED plus each plugin's `calls`),
// less the plugins that configure found idle (a controller turned off by --controllers calls none
// of its hooks). After configure (plugins tap in apply and in configure) every other tap is named,
// with the commands that do call its hook, and so is each such tap made later (in a start tap, as
// a plugin with asynchronous set-up does). A warning, not a refusal: one config file may serve
// several commands.
import { HOST_CALLED, type HookName, type Hooks } from './hooks.js';
import type { Host } from './host.js';
import type { Logger } from './log.js';
import type { Plugin } from './plugin.js';
import { knownSigners } from './signing.js';
import { ownerOf } from './tap-owners.js';

/** A command and the plugins it runs (a Profile is one). */
export interface Command { readonly role: string; readonly plugins: readonly Plugin[] }

/**
 * A command and the hooks its plugins call (beyond HOST_CALLED): enough to name the commands that
 * call a hook, without loading their plugins (host/role-registry.ts lists plat's roles so).
 */
export interface CommandCalls { readonly role: string; readonly calls: readonly HookName[] }

export interface UncalledTap {
  /** The plugin that made the tap (the tap's name when unknown). */
  readonly plugin: string;
  /** The tap's name, when it is not the plugin's. */
  readonly tap?: string;
  readonly hook: HookName;
  /** As a plugin writes it: `hooks.nodeAgent`, `hooks.sign.for("example.com/x")`. */
  readonly where: string;
}

/** The hooks a command of these plugins calls. */
export function hooksCalled(plugins: readonly Plugin[]): Set<HookName> {
  return new Set([...HOST_CALLED, ...plugins.flatMap((p) => p.calls ?? [])]);
}

/** A command's calls from its plugins. */
export function commandCalls(command: Command): CommandCalls {
  return { role: command.role, calls: command.plugins.flatMap((p) => p.calls ?? []) };
}

const idle = new WeakMap<Host, Map<string, string>>();

/**
 * Says, in configure, that `plugin` calls none of its `calls` in this run, and why (`csrsigning is
 * disabled by --controllers=...`): a tap on a hook that only it calls is then named, with the reason.
 */
export function callsNothing(host: Host, plugin: string, why: string): void {
  let reasons = idle.get(host);
  if (!reasons) idle.set(host, (reasons = new Map()));
  reasons.set(plugin, why);
}

/**
 * Reports each tap (by name, once per hook) on a hook outside `called`: those made so far at once,
 * later ones as they are made.
 */
export function onUncalledTaps(hooks: Hooks, called: ReadonlySet<HookName>, report: (tap: UncalledTap) => void): void {
  const seen = new Set<string>();
  const watch = (hook: HookName, where: string) => ({
    register<T extends { name: string }>(tap: T): T {
      const owner = ownerOf(tap);
      const key = `${where}\0${owner.plugin}\0${tap.name}`;
      if (!seen.has(key)) {
        seen.add(key);
        report({ ...owner, hook, where });
      }
      return tap;
    },
  });
  const signer = (name: string) => `hooks.sign.for(${JSON.stringify(name)})`;
  for (const hook of Object.keys(hooks) as HookName[]) {
    if (called.has(hook)) continue;
    if (hook === 'sign') {
      for (const name of knownSigners(hooks.sign)) hooks.sign.get(name)!.intercept(watch(hook, signer(name)));
      hooks.sign.intercept({ factory: (name: string, h) => { h!.intercept(watch(hook, signer(name))); return h!; } });
    } else {
      hooks[hook].intercept(watch(hook, `hooks.${hook}`));
    }
  }
}

/**
 * Logs one warning per uncalled tap of `command`, naming those of `commands` that call its hook
 * (without `commands`, as in a test's boot, it names none), or why this run does not call it.
 */
export function warnUncalledTaps(host: Host, command: Command, commands: readonly CommandCalls[], logger: Logger): void {
  const reasons = idle.get(host) ?? new Map<string, string>();
  const called = hooksCalled(command.plugins.filter((p) => !reasons.has(p.name)));
  onUncalledTaps(host.hooks, called, ({ plugin, tap, hook, where }) => {
    const why = [...new Set(command.plugins.filter((p) => reasons.has(p.name) && p.calls?.includes(hook)).map((p) => reasons.get(p.name)!))];
    const callers = commands.filter((c) => c.role !== command.role && c.calls.includes(hook)).map((c) => `plat ${c.role}`);
    const elsewhere = why.length > 0 ? ` while ${why.join(' and ')}`
      : callers.length > 0 ? ` (it is called by ${callers.join(' and ')})` : commands.length > 0 ? ' (no plat command calls it yet)' : '';
    const named = `plugin ${JSON.stringify(plugin)}${tap === undefined ? '' : ` (tap ${JSON.stringify(tap)})`}`;
    logger.warn(`${named} taps ${where}, which plat ${command.role} never calls${elsewhere}: the tap does nothing here`);
  });
}
