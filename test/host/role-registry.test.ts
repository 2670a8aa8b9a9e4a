// `plat <role>` imports its own profile only (host/role-registry.ts), and the registry's list of the
// hooks each role calls, which names the other commands in the uncalled-tap warning without
// loading their plugins, is the one the profiles' plugins declare.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { HOST_CALLED } from '../../core/hooks.js';
import { hooksCalled } from '../../core/uncalled-taps.js';
import { profiles } from '../../host/profiles.js';
import { roleCalls, roles } from '../../host/role-registry.js';
import { freePort, repoRoot, tempDir } from '../helpers/plat.js';
import { runPlat, startPlat } from '../helpers/run-plat.js';

/**
 * The modules `plat <args>` loads, as file URLs: ES modules from a loader hook, CommonJS ones
 * (tapable, ajv, yaml, koa are) from require.cache at exit.
 */
function modulesLoaded(args: string[]): string[] {
  return traced((nodeOptions) => runPlat(args, { env: { NODE_OPTIONS: nodeOptions } }));
}

/** The modules a process loads, `run` being given the NODE_OPTIONS that trace them. */
function traced(run: (nodeOptions: string) => { code: number | null; stderr: string }): string[] {
  const trace = moduleTrace();
  const r = run(trace.nodeOptions);
  assert.equal(r.code, 0, r.stderr);
  return trace.modules();
}

/** NODE_OPTIONS that record the modules a process loads, and the record once it has exited. */
function moduleTrace(): { nodeOptions: string; modules: () => string[] } {
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
  return {
    nodeOptions: `--import=${pathToFileURL(path.join(dir, 'register.mjs')).href}`,
    modules: () => readFileSync(trace, 'utf8').split('\n').filter(Boolean),
  };
}

/** The packages among `modules`, by name. */
function packagesOf(modules: readonly string[]): Set<string | undefined> {
  return new Set(modules.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]));
}

const CEL_PACKAGES = ['@bufbuild/cel', '@bufbuild/cel-spec', '@bufbuild/protobuf', '@bufbuild/re2'];

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
      const packages = packagesOf(modules);
      assert.ok(packages.has('tapable'), 'the trace sees CommonJS packages');
      assert.deepEqual(['yaml', 'ajv', 'koa', 'cosmiconfig', 'lmdb'].filter((p) => packages.has(p)), []);
    });
  }

  // CEL (~130 modules) is loaded when the first expression is compiled, not with the plugins that
  // compile them (authorization and admission match conditions, OIDC claim mappings).
  for (const role of ['apiserver', 'all']) {
    it(`plat ${role} --help loads no CEL package`, () => {
      const packages = packagesOf(modulesLoaded([role, '--help']));
      assert.ok(packages.has('tapable'), 'the trace sees CommonJS packages');
      assert.deepEqual(CEL_PACKAGES.filter((p) => packages.has(p)), []);
    });
  }

  it('plat all started without CEL in its configuration loads no CEL package', async () => {
    const trace = moduleTrace();
    const dataDir = tempDir('plat-role-start-');
    const plat = await startPlat(['all', '--data-dir', dataDir, '--secure-port', String(await freePort())], /plat is serving at/,
      { cwd: dataDir, env: { NODE_OPTIONS: trace.nodeOptions } });
    await plat.stop();
    const packages = packagesOf(trace.modules());
    assert.ok(packages.has('koa'), 'the trace sees the CommonJS packages of a serving plat');
    assert.deepEqual(CEL_PACKAGES.filter((p) => packages.has(p)), []);
  });

  it('compiling and evaluating every kind of CEL expression loads one copy of each CEL package, the CommonJS one', () => {
    const dist = pathToFileURL(path.join(repoRoot, 'dist')).href;
    const script = `
      const authz = await import('${dist}/core/authz/match-conditions.js');
      const admission = await import('${dist}/plugins/admission-webhook/cel/compile.js');
      const { evaluateMatchConditions } = await import('${dist}/plugins/admission-webhook/cel/evaluate.js');
      const { AuthorizerSession } = await import('${dist}/plugins/admission-webhook/cel/authz-library.js');
      const { CelCompiler, evaluate, celInput } = await import('${dist}/plugins/authn-oidc/cel.js');
      const spec = { user: 'u', groups: [], uid: '', extra: {} };
      if (!authz.evaluateMatchConditions([authz.compileMatchCondition("request.user.matches('^u$')")], spec).matches) throw new Error('authz');
      if (!('program' in admission.compileMatchCondition("authorizer.path('/x').check('get').allowed() || true"))) throw new Error('admission');
      const session = new AuthorizerSession({ name: 'u', groups: [] });
      const resource = { group: '', resource: 'r', subresource: '', namespace: '', name: '' };
      const m = await evaluateMatchConditions([{ expression: "authorizer.requestResource.check('get').allowed()" }], 'Fail',
        { object: {}, oldObject: null, request: {}, session, requestResource: resource, resolvePending: async () => { for (const k of session.pending.keys()) session.answers.set(k, { decision: 'allow', reason: '', error: '' }); session.pending.clear(); } });
      if (!m.matches) throw new Error('admission evaluation');
      const oidc = new CelCompiler();
      oidc.compile('claims.sub', 'claimMapping');
      oidc.compile('user.username != ""', 'userValidation');
      if (evaluate(oidc.program('claims.sub', 'claimMapping'), celInput({ sub: 'x' })) !== 'x') throw new Error('oidc');
    `;
    const modules = traced((nodeOptions) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, env: { ...process.env, NODE_OPTIONS: nodeOptions }, encoding: 'utf8', timeout: 30_000 });
      return { code: r.status, stderr: r.stderr };
    });
    const cel = [...new Set(modules.filter((u) => CEL_PACKAGES.some((p) => u.includes(`/node_modules/${p}/`))))];
    for (const p of ['@bufbuild/cel', '@bufbuild/protobuf', '@bufbuild/re2']) assert.ok(cel.some((u) => u.includes(`/node_modules/${p}/dist/cjs/`)), p);
    assert.deepEqual(cel.filter((u) => !u.includes('/dist/cjs/')), []);
  });

  it('plat controller-manager imports the controllers, not the API server\'s plugins', () => {
    assert.deepEqual(pluginsOf(modulesLoaded(['controller-manager', '--help'])), ['clusterrole-aggregation', 'controller-manager', 'controller-manager-serving', 'csrapproving', 'csrcleaner', 'csrsigning', 'garbagecollector', 'legacy-token-cleaner', 'namespace', 'nodelifecycle-controller', 'serviceaccount-controller', 'serviceaccount-token-controller', 'tokencleaner']);
  });

  it('plat apiserver imports no controller and no node agent plugin', () => {
    const loaded = pluginsOf(modulesLoaded(['apiserver', '--help']));
    assert.ok(loaded.includes('apiserver') && loaded.includes('rbac'), loaded.join(' '));
    assert.deepEqual(loaded.filter((p) => /^(csr|controller-manager|nodeagent)/.test(p)), []);
  });
});
