// Finds and reads the plat config file with cosmiconfig (module name `plat`), checks its shape,
// and returns it normalised: plugin entries as PluginRefs that carry their place in the file, so
// that every later error (a plugin that cannot load, a flag that does not exist) can say where
// the mistake is. Nothing here imports plugins or applies flags: the host does, in boot order.
import path from 'node:path';
import type { Loader } from 'cosmiconfig';
import { ConfigError } from './config-error.js';
import { loadJsFile, loadJsonFile, loadTsFile, loadYamlFile } from './file-loaders.js';
import type { PluginRef } from './import-plugin.js';
import { escapePointer, validateConfigShape } from './schema.js';

export { ConfigError } from './config-error.js';
export { importPlugin, pluginLabel } from './import-plugin.js';
export type { LoadedPlugin, PluginRef } from './import-plugin.js';

export interface RoleConfig {
  plugins: PluginRef[];
  flags: Record<string, unknown>;
}

export interface LoadedConfig {
  filepath: string;
  plugins: PluginRef[];
  flags: Record<string, unknown>;
  /** Only the roles the file has a section for. */
  roles: Record<string, RoleConfig>;
}

export interface LoadConfigOptions {
  /** Where the search starts. */
  cwd: string;
  /** An explicit config file (relative to cwd): only that file is read, and it must exist. */
  file?: string;
  /** Search upwards from cwd up to and including this directory; without it only cwd is searched. */
  stopDir?: string;
}

/**
 * The places looked at in each directory, first match wins: cosmiconfig's usual names for
 * `plat`, plus `plat.config.{json,yaml,yml}`. `.platrc` without an extension is YAML (or JSON).
 */
export const SEARCH_PLACES: readonly string[] = [
  'package.json',
  '.platrc',
  '.platrc.json',
  '.platrc.yaml',
  '.platrc.yml',
  '.platrc.js',
  '.platrc.mjs',
  '.platrc.cjs',
  '.platrc.ts',
  'plat.config.js',
  'plat.config.mjs',
  'plat.config.cjs',
  'plat.config.json',
  'plat.config.yaml',
  'plat.config.yml',
  'plat.config.ts',
];

const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts']);

/**
 * A file that holds nothing (`null`, a YAML file of comments) reads as undefined, which cosmiconfig
 * calls empty: with ignoreEmptySearchPlaces off it is then the file found, an empty config, as an
 * empty file is. Null would make cosmiconfig pass over it to the next search place.
 */
const orEmpty = (load: Loader): Loader => async (filepath, content) => (await load(filepath, content)) ?? undefined;

const loaders: Record<string, Loader> = {
  '.json': orEmpty(loadJsonFile),
  '.yaml': orEmpty(loadYamlFile),
  '.yml': orEmpty(loadYamlFile),
  noExt: orEmpty(loadYamlFile),
  '.js': orEmpty(loadJsFile),
  '.mjs': orEmpty(loadJsFile),
  '.cjs': orEmpty(loadJsFile),
  '.ts': orEmpty(loadTsFile),
};

interface ConfigExplorer {
  search(from: string): Promise<{ config: unknown; filepath: string; isEmpty?: boolean } | null>;
  load(file: string): Promise<{ config: unknown; filepath: string; isEmpty?: boolean } | null>;
}

/**
 * cosmiconfig's Explorer with plat's options and nothing else. cosmiconfig() would first look in
 * the working directory for a "meta config" (package.json's `cosmiconfig` key, .config/config.json)
 * that can add search places or stand in for the config: a file plat's search order does not
 * name would then configure it (PLAT_CONFIG too), and a package.json that does not parse stopped
 * every start with a stack trace. The Explorer is what cosmiconfig() builds after that step.
 */
async function platExplorer(): Promise<ConfigExplorer> {
  const [{ Explorer }, { defaultLoaders }] = await Promise.all([
    import('cosmiconfig/dist/Explorer.js') as unknown as Promise<{ Explorer: new (options: object) => ConfigExplorer }>,
    import('cosmiconfig'),
  ]);
  return new Explorer({
    moduleName: 'plat',
    searchPlaces: [...SEARCH_PLACES],
    loaders: { ...defaultLoaders, ...loaders },
    searchStrategy: 'none',
    // plat reads only the first file it finds: an empty one is that file (an empty config), not a
    // reason to read another file beside it.
    ignoreEmptySearchPlaces: false,
    cache: false,
    transform: (r: unknown) => r,
    metaConfigFilePath: null,
    mergeImportArrays: true,
    mergeSearchPlaces: true,
  });
}

/** Finds, reads and checks the config file; undefined when the search finds none. */
export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig | undefined> {
  // Imported here, not with this module: --help and a flag error are answered without it.
  const explorer = await platExplorer();
  let result: { config: unknown; filepath: string; isEmpty?: boolean } | null;
  if (opts.file !== undefined) {
    const file = path.resolve(opts.cwd, opts.file);
    result = await read(file, () => explorer.load(file));
    if (result === null) throw new ConfigError(`${file}: has no "plat" property`);
  } else {
    result = null;
    for (const dir of searchDirs(path.resolve(opts.cwd), opts.stopDir)) {
      result = await read(dir, () => explorer.search(dir));
      if (result !== null) break;
    }
    if (result === null) return undefined;
  }
  return normalise(result.config ?? {}, result.filepath);
}

/** cwd, then each parent up to stopDir (or to the root, when stopDir is not above cwd). */
function searchDirs(cwd: string, stopDir: string | undefined): string[] {
  if (stopDir === undefined) return [cwd];
  const stop = path.resolve(stopDir);
  const dirs = [cwd];
  for (let dir = cwd; dir !== stop; ) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dirs.push(parent);
    dir = parent;
  }
  return dirs;
}

async function read<T>(where: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const file = (err as { filepath?: unknown }).filepath;
    const prefix = typeof file === 'string' ? file : where;
    let message = err instanceof Error ? err.message : String(err);
    if ((err as { code?: unknown }).code === 'ENOENT') message = 'no such file';
    throw new ConfigError(`${prefix}: cannot load the config file: ${message}`, { cause: err });
  }
}

/** Checks the shape and turns plugin entries into PluginRefs. */
export function normalise(config: unknown, filepath: string): LoadedConfig {
  const fromCode = CODE_EXTENSIONS.has(path.extname(filepath));
  const problems = validateConfigShape(config, fromCode);
  const c = config as {
    plugins?: unknown[];
    flags?: Record<string, unknown>;
    roles?: Record<string, { plugins?: unknown[]; flags?: Record<string, unknown> }>;
  };
  const lists: Array<[string, unknown]> = [['/plugins', c?.plugins]];
  if (typeof c?.roles === 'object' && c.roles !== null) {
    for (const [role, section] of Object.entries(c.roles)) lists.push([`/roles/${escapePointer(role)}/plugins`, section?.plugins]);
  }
  // ajv cannot see functions: an inline plugin object (that has its name) must bring its apply.
  for (const [base, list] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, i) => {
      const e = entry as { name?: unknown; apply?: unknown } | null;
      if (fromCode && typeof e === 'object' && e !== null && !Array.isArray(e) && typeof e.name === 'string' && typeof e.apply !== 'function') {
        problems.push(`${base}/${i}: a plugin object must have an "apply" function`);
      }
    });
  }
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `${filepath}: ${p}`).join('\n'));

  const refs = (list: unknown[] | undefined, base: string): PluginRef[] =>
    (list ?? []).map((entry, index) => {
      const pointer = `${base}/${index}`;
      if (!Array.isArray(entry) && typeof entry === 'object' && entry !== null) return { spec: entry, options: undefined, index, pointer, filepath };
      const [spec, options] = Array.isArray(entry) ? (entry as [string, unknown?]) : [entry as string, undefined];
      return { spec, options, index, pointer, filepath };
    });
  const roles: Record<string, RoleConfig> = {};
  for (const [role, section] of Object.entries(c.roles ?? {})) {
    roles[role] = { plugins: refs(section.plugins, `/roles/${escapePointer(role)}/plugins`), flags: { ...section.flags } };
  }
  return { filepath, plugins: refs(c.plugins, '/plugins'), flags: { ...c.flags }, roles };
}
