// The config file's plugins at boot: loaded in order, each name checked against plat's own
// plugins and the file's other entries, and kept with the entry they came from, so that a failure
// in one of their taps later (configure, start) names the plugin and its place in the file.
import path from 'node:path';
import type * as tapable from 'tapable';
import { importPlugin, pluginLabel, type PluginRef } from './config/load-config.js';
import { isStartupError, StartupError, type Plugin } from './plugin.js';
import { aroundTap } from './promise-taps.js';

export interface ExternalPlugin {
  readonly plugin: Plugin;
  readonly options: unknown;
  /** `<config file>: /plugins/0: plugin "./x.mjs"` */
  readonly label: string;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Loads the entries of `configFile` in order. A name may appear twice only for the same module
 * (one plugin loaded twice with different options); a second module of that name, or one taking
 * the name of a plugin plat has, is refused: two plugins of one name cannot be told apart in the
 * log, in tap ordering (`before: name`) or in the options the configure hook hands out by name.
 */
export async function loadExternalPlugins(refs: readonly PluginRef[], configFile: string, own: readonly Plugin[],
  loading: (label: string | undefined) => void = () => {}): Promise<ExternalPlugin[]> {
  const baseDir = path.dirname(configFile);
  const taken = new Map<string, { label: string; source: unknown }>();
  for (const p of own) taken.set(p.name, { label: "one of plat's own plugins", source: p });
  const out: ExternalPlugin[] = [];
  for (const ref of refs) {
    let plugin: Plugin;
    const label = pluginLabel(ref, baseDir);
    // Said by the host if the module or its factory never settles (nothing else would name it).
    loading(label);
    try {
      plugin = (await importPlugin(ref, baseDir)) as Plugin;
    } catch (e) {
      throw new StartupError(message(e), 1);
    } finally {
      loading(undefined);
    }
    const source = typeof ref.spec === 'string' ? `${ref.filepath ?? ''}\0${ref.spec}` : ref.spec;
    const other = taken.get(plugin.name);
    if (other && other.source !== source) {
      throw new StartupError(`${label}: the plugin name ${JSON.stringify(plugin.name)} is already taken by ${other.label}`, 1);
    }
    taken.set(plugin.name, { label, source });
    out.push({ plugin, options: ref.options, label });
  }
  return out;
}

/** Any hook's tap, whatever its arguments and result. */
type AnyTap = tapable.AsyncSeriesHook<[]>['taps'][number];
interface Interceptable { intercept(interceptor: { register: (tap: AnyTap) => AnyTap; tap: (tap: AnyTap) => void }): void }

/**
 * Which config-file entry made each tap. A module listed twice taps under one name twice, so the
 * name cannot tell its entries apart; the entry whose apply was running when a tap was made can.
 */
export class EntryTaps {
  #applying: ExternalPlugin | undefined;

  /** Runs `apply` of `entry` (undefined for plat's own plugins): the taps it makes are the entry's. */
  applying<T>(entry: ExternalPlugin | undefined, apply: () => T): T {
    this.#applying = entry;
    try {
      return apply();
    } finally {
      this.#applying = undefined;
    }
  }

  /**
   * Follows `hook`'s taps as they run: the entry of the last one called (the one that threw, in a
   * series hook). `wrap` may replace an entry's tap function, to hand it what is that entry's own.
   * Call it before any plugin applies.
   */
  follow(hook: Interceptable, wrap?: (fn: Function, entry: ExternalPlugin, type: AnyTap['type']) => Function): () => ExternalPlugin | undefined {
    const owners = new WeakMap<AnyTap, ExternalPlugin>();
    let last: ExternalPlugin | undefined;
    hook.intercept({
      register: (tap) => {
        const entry = this.#applying;
        if (!entry) return tap;
        const own = { ...tap, fn: wrap ? wrap(tap.fn, entry, tap.type) : tap.fn };
        owners.set(own, entry);
        return own;
      },
      tap: (tap) => { last = owners.get(tap); },
    });
    return () => last;
  }
}

/**
 * A tap function of `entry` whose failure is the start-up error naming the entry (externalTapError),
 * thrown as it fails: on a parallel hook (`ready`) the last tap called is not the one that failed.
 * `type` is the tap's as registered (a sync tap of an async hook is a callback tap by then).
 */
export function namingFailures(fn: Function, entry: ExternalPlugin, phase: string, type: AnyTap['type']): Function {
  return aroundTap(type, fn as (...args: unknown[]) => unknown, { settled() {}, failed: (e) => externalTapError(entry, phase, e) ?? e });
}

/**
 * The start-up error for a tap of `phase` that threw: a config-file plugin's is named with its
 * entry (`<file>: /plugins/0: plugin "./x.mjs": X failed to configure: ...`); plat's own plugins
 * word their errors themselves, so theirs is passed on as it is (undefined).
 */
export function externalTapError(entry: ExternalPlugin | undefined, phase: string, e: unknown): StartupError | undefined {
  if (isStartupError(e) || !entry) return undefined;
  return new StartupError(`${entry.label}: ${entry.plugin.name} failed to ${phase}: ${message(e)}`, 1);
}
