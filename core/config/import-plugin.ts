// Turns a plugin entry of the config file into a plugin object. Which export counts, in order:
// the default export, else a named `plugin` export (for CommonJS modules also `module.exports
// .default` and `.plugin`). The export may be
//   - a plugin object `{ name, apply }`: used as is;
//   - a class (webpack style): instantiated with `new Plugin(options)`;
//   - any other function: a factory, called as `factory(options)` and awaited.
// The result must have a string `name` and a function `apply`. The entry's options are passed to
// the constructor or factory; the host passes them to `apply(host, options)` as well.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError } from './config-error.js';
import { resolvePackage } from './resolve-package.js';
import { syntaxErrorPlace } from './syntax-error-place.js';

export interface PluginRef {
  /** A module path (relative to the config file's directory), a package name, or a plugin object (JS configs). */
  readonly spec: string | object;
  readonly options: unknown;
  /** Position in its `plugins` list. */
  readonly index: number;
  /** JSON pointer of the entry in the config file, for messages (`/roles/apiserver/plugins/0`). */
  readonly pointer?: string;
  /** The config file the entry came from, for messages. */
  readonly filepath?: string;
}

export interface LoadedPlugin {
  readonly name: string;
  readonly apply: Function;
}

/** Where the entry is, for messages: `<config file>: /plugins/0: plugin "./x.mjs"` (or `plugin object`). */
export function pluginLabel(ref: PluginRef, baseDir: string): string {
  const where = `${ref.filepath ?? baseDir}: ${ref.pointer ?? `/plugins/${ref.index}`}`;
  return `${where}: plugin ${typeof ref.spec === 'string' ? JSON.stringify(ref.spec) : 'object'}`;
}

/** Loads and checks the plugin `ref` names, resolving module paths and packages from `baseDir`. */
export async function importPlugin(ref: PluginRef, baseDir: string): Promise<LoadedPlugin> {
  const where = `${ref.filepath ?? baseDir}: ${ref.pointer ?? `/plugins/${ref.index}`}`;
  const label = pluginLabel(ref, baseDir);
  if (typeof ref.spec !== 'string') return checkPlugin(ref.spec, label);
  let ns: Record<string, unknown>;
  let file = '';
  try {
    file = locate(ref.spec, baseDir);
    ns = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`${where}: cannot load plugin ${JSON.stringify(ref.spec)}: ${reason(err)}${syntaxErrorPlace(err, file)}`, { cause: err });
  }
  const exported = pickExport(ns);
  if (exported === undefined) {
    throw new ConfigError(
      `${label}: the module exports no plugin: ${describeExports(ns)} (expected a default or "plugin" export: an object with "name" and "apply", a class, or a factory function)`,
    );
  }
  let made: unknown = exported;
  if (typeof exported === 'function') {
    try {
      made = isClass(exported)
        ? new (exported as new (options: unknown) => unknown)(ref.options)
        : await (exported as (options: unknown) => unknown)(ref.options);
    } catch (err) {
      throw new ConfigError(`${label}: creating the plugin failed: ${reason(err)}`, { cause: err });
    }
  }
  return checkPlugin(made, label);
}

/** True for paths (relative, absolute, file: URLs) as opposed to package names. */
export function isPathSpecifier(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || path.isAbsolute(spec) || spec.startsWith('file:');
}

function locate(spec: string, baseDir: string): string {
  if (!isPathSpecifier(spec)) return resolvePackage(spec, baseDir);
  const file = spec.startsWith('file:') ? fileURLToPath(spec) : path.resolve(baseDir, spec);
  if (!existsSync(file)) throw new Error(`no such file: ${file}${extensionHint(spec, file)}`);
  return file;
}

const JS_EXTENSIONS = ['.mjs', '.js', '.cjs'];

/** Node's ESM loader adds no extension: `./my-plugin` for `./my-plugin.mjs` is named as the entry would read. */
function extensionHint(spec: string, file: string): string {
  const found = JS_EXTENSIONS.filter((ext) => existsSync(file + ext)).map((ext) => spec + ext);
  return found.length > 0 ? ` (did you mean ${found.join(' or ')}?)` : '';
}

function pickExport(ns: Record<string, unknown>): unknown {
  const candidates: unknown[] = [ns['default'], ns['plugin']];
  const d = ns['default'];
  // CommonJS: module.exports arrives as `default`; a transpiled `exports.default` or `exports.plugin` sits inside it.
  if (typeof d === 'object' && d !== null && !hasApply(d)) {
    candidates.push((d as Record<string, unknown>)['default'], (d as Record<string, unknown>)['plugin']);
  }
  return candidates.find((c) => typeof c === 'function' || hasApply(c));
}

// What the module offers instead, so that a wrong shape (a named export, `apply` misspelt or not a
// function, a CommonJS `exports.signer`) is seen without opening the plugin.
function describeExports(ns: Record<string, unknown>): string {
  const offered = 'default' in ns ? ns['default'] : ns['plugin'];
  const which = 'default' in ns ? 'its default export' : 'its "plugin" export';
  if (!('default' in ns) && !('plugin' in ns)) {
    const names = Object.keys(ns);
    return names.length === 0 ? 'it exports nothing' : `it has no default export (it exports: ${names.join(', ')})`;
  }
  if (typeof offered !== 'object' || offered === null) return `${which} is ${offered === null ? 'null' : typeof offered}`;
  const keys = Object.keys(offered);
  const apply = (offered as { apply?: unknown }).apply;
  const why = apply === undefined ? 'without an "apply" function' : `whose "apply" is ${apply === null ? 'null' : typeof apply}, not a function`;
  return `${which} is an object ${why} (${keys.length === 0 ? 'no keys' : `keys: ${keys.join(', ')}`})`;
}

function hasApply(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { apply?: unknown }).apply === 'function';
}

function isClass(fn: Function): boolean {
  if (/^class[\s{]/.test(Function.prototype.toString.call(fn))) return true;
  // ES5-style constructors (transpiled classes) carry apply on their prototype.
  const proto = (fn as { prototype?: unknown }).prototype;
  return typeof proto === 'object' && proto !== null && typeof (proto as { apply?: unknown }).apply === 'function';
}

function checkPlugin(v: unknown, label: string): LoadedPlugin {
  if (typeof v !== 'object' || v === null) throw new ConfigError(`${label}: is not a plugin object (got ${v === null ? 'null' : typeof v})`);
  const { name, apply } = v as { name?: unknown; apply?: unknown };
  if (typeof name !== 'string' || name === '') throw new ConfigError(`${label}: the plugin has no string "name"`);
  if (typeof apply !== 'function') throw new ConfigError(`${label}: the plugin ${JSON.stringify(name)} has no "apply" function`);
  return v as LoadedPlugin;
}

const THIS_FILE = fileURLToPath(import.meta.url);

function reason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // Node appends "imported from <file>": this file points at plat rather than at the config file,
  // and is dropped; the plugin's own file (a package or module it imports is missing) is kept.
  const message = err.message.replace(/ imported from (\S+)$/, (all, from: string) => (from === THIS_FILE ? '' : all));
  if ((err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && /^Cannot find package 'plat' /.test(message)) {
    return `${message} (a plugin outside the plat checkout needs plat in a node_modules above it: \`npm link plat\` or \`npm install /path/to/plat\` in its directory, see README, Writing plugins)`;
  }
  return message;
}
