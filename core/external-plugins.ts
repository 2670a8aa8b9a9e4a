// The config file's plugins at boot: loaded in order, each name checked against plat's own
// plugins and the file's other entries, and kept with the entry they came from, so that a failure
// in one of their taps later (configure, start) names the plugin and its place in the file.
import path from 'node:path';
import { importPlugin, pluginLabel, type PluginRef } from './config/load-config.js';
import { StartupError, type Plugin } from './plugin.js';

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
export async function loadExternalPlugins(refs: readonly PluginRef[], configFile: string, own: readonly Plugin[]): Promise<ExternalPlugin[]> {
  const baseDir = path.dirname(configFile);
  const taken = new Map<string, { label: string; source: unknown }>();
  for (const p of own) taken.set(p.name, { label: "one of plat's own plugins", source: p });
  const out: ExternalPlugin[] = [];
  for (const ref of refs) {
    let plugin: Plugin;
    try {
      plugin = (await importPlugin(ref, baseDir)) as Plugin;
    } catch (e) {
      throw new StartupError(message(e), 1);
    }
    const label = pluginLabel(ref, baseDir);
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

interface Interceptable { intercept(interceptor: { tap?: (tap: { name: string }) => void }): void }

/** Follows `hook`'s taps as they run: the name of the last one called (the one that threw, in a series hook). */
export function lastTap(hook: Interceptable): () => string | undefined {
  let name: string | undefined;
  hook.intercept({ tap: (tap) => { name = tap.name; } });
  return () => name;
}

/**
 * The start-up error for a tap of `phase` that threw: a config-file plugin's is named with its
 * entry (`<file>: /plugins/0: plugin "./x.mjs": X failed to configure: ...`); plat's own plugins
 * word their errors themselves, so theirs is passed on as it is (undefined).
 */
export function externalTapError(external: readonly ExternalPlugin[], tap: string | undefined, phase: string, e: unknown): StartupError | undefined {
  if (e instanceof StartupError) return undefined;
  const entry = external.find((x) => x.plugin.name === tap);
  if (!entry) return undefined;
  return new StartupError(`${entry.label}: ${entry.plugin.name} failed to ${phase}: ${message(e)}`, 1);
}
