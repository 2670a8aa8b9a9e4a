// Finds the file a bare plugin specifier (`plat-plugin-x`, `@org/plugin/sub`) names, as seen from
// the config file's directory. Node 20 cannot resolve ESM from an arbitrary directory
// (import.meta.resolve's parent argument is behind a flag) and require.resolve ignores the
// "import" condition, which ESM-only plugin packages rely on; so package.json "exports" are read
// here with the ESM conditions, and require.resolve covers packages without "exports".
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const CONDITIONS = ['node', 'import', 'default'];

/** Splits `@scope/name/a/b` into the package name and the exports subpath (`./a/b`, or `.`). */
export function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const n = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, n).join('/');
  const rest = parts.slice(n).join('/');
  return { name, subpath: rest === '' ? '.' : `./${rest}` };
}

/** Absolute path of the module that `specifier` names from `baseDir`; throws Error with the reason. */
export function resolvePackage(specifier: string, baseDir: string): string {
  const { name, subpath } = splitSpecifier(specifier);
  let found: string | undefined;
  for (let dir = path.resolve(baseDir); ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, 'node_modules', name);
    const manifest = path.join(pkgDir, 'package.json');
    if (existsSync(manifest)) {
      found = pkgDir;
      let pkg: { exports?: unknown };
      try {
        pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown };
      } catch (err) {
        throw new Error(`cannot read ${manifest}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (pkg.exports === undefined || pkg.exports === null) break; // main / index.js: require's rules
      const target = resolveExports(pkg.exports, subpath);
      if (target === undefined) throw new Error(`package "${name}" does not export "${subpath}" (see "exports" in ${manifest})`);
      return path.join(pkgDir, target);
    }
    if (path.dirname(dir) === dir) break;
  }
  try {
    return createRequire(path.join(path.resolve(baseDir), 'noop.js')).resolve(specifier);
  } catch (err) {
    if (found === undefined) throw new Error(`cannot find package "${name}" from ${baseDir}`);
    throw new Error(`package "${name}" at ${found}: cannot resolve "${specifier}": ${requireReason(err, specifier, subpath === '.')}`);
  }
}

/**
 * require.resolve's own words, without its "Require stack" (which names a file that does not
 * exist) and, where it only repeats the specifier, with what it looked for.
 */
function requireReason(err: unknown, specifier: string, packageRoot: boolean): string {
  const first = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  if (!packageRoot || first !== `Cannot find module '${specifier}'`) return first;
  return `${first} (its package.json has no "exports" or "main", and it has no index.js)`;
}

/** The target of `subpath` in a package.json "exports" value, with the ESM conditions. */
export function resolveExports(exports: unknown, subpath: string): string | undefined {
  const map = isSubpathMap(exports) ? (exports as Record<string, unknown>) : { '.': exports };
  const exact = map[subpath];
  if (exact !== undefined) return resolveTarget(exact, undefined);
  // Subpath patterns: "./features/*": "./src/features/*.js"; the longest prefix wins.
  let best: { key: string; star: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      if (best === undefined || prefix.length > best.key.indexOf('*')) {
        best = { key, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
      }
    }
  }
  return best !== undefined ? resolveTarget(map[best.key], best.star) : undefined;
}

function isSubpathMap(exports: unknown): boolean {
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return false;
  return Object.keys(exports).some((k) => k.startsWith('.'));
}

function resolveTarget(target: unknown, star: string | undefined): string | undefined {
  if (typeof target === 'string') {
    if (!target.startsWith('./')) return undefined;
    return star === undefined ? target : target.replace(/\*/g, star);
  }
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = resolveTarget(t, star);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, t] of Object.entries(target)) {
      if (!CONDITIONS.includes(condition)) continue;
      const r = resolveTarget(t, star);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}
