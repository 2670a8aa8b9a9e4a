// `plat <role>` imports its own profile only (host/role-registry.ts), and the registry's list of the
// hooks each role calls, which names the other commands in the uncalled-tap warning without
// loading their plugins, is the one the profiles' plugins declare.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { HOST_CALLED } from '../../core/hooks.js';
import { hooksCalled } from '../../core/uncalled-taps.js';
import { profiles } from '../../host/profiles.js';
import { roleCalls, roles } from '../../host/role-registry.js';
import { repoRoot, tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

/**
 * The modules `plat <args>` loads, as file URLs: ES modules from a loader hook, CommonJS ones
 * (tapable, ajv, yaml, koa are) from require.cache at exit.
 */
function modulesLoaded(args: string[]): string[] {
  const dir = tempDir('plat-role-modules-');
  const trace = path.join(dir, 'modules.txt');
  writeFileSync(path.join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(trace)}, url + '\\n'); return next(url, context); }
`);
  writeFileSync(path.join(dir, 'register.mjs'), `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});
const required = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(${JSON.stringify(trace)}, Object.keys(required).map((f) => pathToFileURL(f).href + '\\n').join('')));
`);
  const r = runPlat(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(path.join(dir, 'register.mjs')).href}` } });
  assert.equal(r.code, 0, r.stderr);
  return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
}

/** The plugin directories among `modules`. */
function pluginsOf(modules: readonly string[]): string[] {
  const plugins = pathToFileURL(path.join(repoRoot, 'dist/plugins')).href + '/';
  return [...new Set(modules.filter((u) => u.startsWith(plugins)).map((u) => u.slice(plugins.length).split('/')[0]!))].sort();
}

describe('role registry', () => {
  it('lists the roles of the profiles, in their order, each loading its own profile', async () => {
    assert.deepEqual(Object.keys(roles), Object.keys(profiles));
    for (const [role, r] of Object.entries(roles)) assert.equal(await r.load(), profiles[role], role);
  });

  for (const [role, profile] of Object.entries(profiles)) {
    it(`lists the hooks plat ${role}'s plugins call`, () => {
      const listed = roleCalls.find((c) => c.role === role)!;
      assert.deepEqual(new Set([...HOST_CALLED, ...listed.calls]), hooksCalled(profile.plugins));
    });
  }

  it('plat nodeagent imports the node agent\'s plugins only, and no ajv without a config file to check', () => {
    const modules = modulesLoaded(['nodeagent', '--help']);
    assert.deepEqual(pluginsOf(modules), ['nodeagent', 'nodeagent-identity', 'nodeagent-node', 'nodeagent-server', 'nodeagent-static-pods']);
    assert.ok(modules.some((u) => u.includes('/node_modules/tapable/')), 'the trace sees CommonJS packages');
    assert.deepEqual(modules.filter((u) => u.includes('/node_modules/ajv/')), []);
  });

  // --help reads no file, serves nothing and stores nothing: the packages that do (each tens of
  // modules, the first three CommonJS) are loaded on first use, not with the role's plugins.
  for (const role of ['apiserver', 'controller-manager', 'nodeagent']) {
    it(`plat ${role} --help loads none of yaml, ajv, koa, cosmiconfig, lmdb`, () => {
      const modules = modulesLoaded([role, '--help']);
      const packages = new Set(modules.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]));
      assert.ok(packages.has('tapable'), 'the trace sees CommonJS packages');
      assert.deepEqual(['yaml', 'ajv', 'koa', 'cosmiconfig', 'lmdb'].filter((p) => packages.has(p)), []);
    });
  }

  it('plat controller-manager imports the controllers, not the API server\'s plugins', () => {
    assert.deepEqual(pluginsOf(modulesLoaded(['controller-manager', '--help'])), ['controller-manager', 'controller-manager-serving', 'csrapproving', 'csrcleaner', 'csrsigning']);
  });

  it('plat apiserver imports no controller and no node agent plugin', () => {
    const loaded = pluginsOf(modulesLoaded(['apiserver', '--help']));
    assert.ok(loaded.includes('apiserver') && loaded.includes('rbac'), loaded.join(' '));
    assert.deepEqual(loaded.filter((p) => /^(csr|controller-manager|nodeagent)/.test(p)), []);
  });
});
