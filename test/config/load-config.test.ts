import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, SEARCH_PLACES, importPlugin, loadConfig } from '../../core/config/load-config.js';
import type { PluginRef } from '../../core/config/load-config.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'plat-config-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A fresh directory with the given files (paths relative to it). */
function dir(files: Record<string, string>): string {
  const d = path.join(root, `d${counter++}`);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(d, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  mkdirSync(d, { recursive: true });
  return d;
}

function configError(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    assert.equal(err.exitCode, 1);
    assert.match(err.message, pattern);
    return true;
  };
}

/** The same config in each format: secure-port 7443 and one plugin with options. */
const CONTENT: Record<string, string> = {
  json: '{ "flags": { "secure-port": 7443 }, "plugins": [["./p.mjs", { "a": 1 }]] }',
  yaml: 'flags:\n  secure-port: 7443\nplugins:\n  - ["./p.mjs", {a: 1}]\n',
  cjs: 'module.exports = { flags: { "secure-port": 7443 }, plugins: [["./p.mjs", { a: 1 }]] };\n',
  esm: 'export default { flags: { "secure-port": 7443 }, plugins: [["./p.mjs", { a: 1 }]] };\n',
  ts: 'const port: number = 7443;\nconst config: { flags: Record<string, number>; plugins: unknown[] } = { flags: { "secure-port": port }, plugins: [["./p.mjs", { a: 1 }]] };\nexport default config;\n',
};

function contentFor(place: string): string {
  if (place === 'package.json') return JSON.stringify({ name: 'x', plat: JSON.parse(CONTENT['json'] ?? '') });
  if (place.endsWith('.json')) return CONTENT['json'] ?? '';
  if (place.endsWith('.yaml') || place.endsWith('.yml') || place === '.platrc') return CONTENT['yaml'] ?? '';
  if (place.endsWith('.js') || place.endsWith('.cjs')) return CONTENT['cjs'] ?? '';
  if (place.endsWith('.mjs')) return CONTENT['esm'] ?? '';
  if (place.endsWith('.ts')) return CONTENT['ts'] ?? '';
  throw new Error(place);
}

test('every search place is found', async () => {
  for (const place of SEARCH_PLACES) {
    const d = dir({ [place]: contentFor(place) });
    const c = await loadConfig({ cwd: d });
    assert.ok(c !== undefined, place);
    assert.equal(c.filepath, path.join(d, place));
    assert.deepEqual(c.flags, { 'secure-port': 7443 }, place);
    assert.equal(c.plugins.length, 1);
    assert.deepEqual(c.plugins[0], { spec: './p.mjs', options: { a: 1 }, index: 0, pointer: '/plugins/0', filepath: c.filepath });
    assert.deepEqual(c.roles, {});
  }
});

test('the TS loader leaves no transpiled file behind', async () => {
  const d = dir({ 'plat.config.ts': CONTENT['ts'] ?? '' });
  await loadConfig({ cwd: d });
  assert.deepEqual(readdirSync(d), ['plat.config.ts']);
});

test('search order, package.json without "plat", empty files, nothing found', async () => {
  let d = dir({ '.platrc': 'flags: {v: 1}\n', 'plat.config.json': '{"flags": {"v": 2}}' });
  assert.equal((await loadConfig({ cwd: d }))?.filepath, path.join(d, '.platrc'));
  d = dir({ 'package.json': '{"name": "x"}', 'plat.config.yaml': 'flags: {v: 3}\n' });
  assert.deepEqual((await loadConfig({ cwd: d }))?.flags, { v: 3 });
  d = dir({ 'unrelated.json': '{}' });
  assert.equal(await loadConfig({ cwd: d }), undefined);
});

test('stopDir: the search walks up to it; without it only cwd is searched', async () => {
  const top = dir({ 'plat.config.yaml': 'flags: {v: 5}\n', 'a/b/c/.keep': '' });
  const deep = path.join(top, 'a', 'b', 'c');
  assert.equal(await loadConfig({ cwd: deep }), undefined);
  assert.equal((await loadConfig({ cwd: deep, stopDir: top }))?.filepath, path.join(top, 'plat.config.yaml'));
  assert.equal(await loadConfig({ cwd: deep, stopDir: path.join(top, 'a') }), undefined, 'stops at stopDir');
});

test('an explicit file is loaded alone, and must exist', async () => {
  const d = dir({ 'conf/custom.yaml': 'flags: {v: 6}\n', 'plat.config.json': '{"flags": {"v": 7}}', 'package.json': '{"name": "x"}' });
  assert.deepEqual((await loadConfig({ cwd: d, file: 'conf/custom.yaml' }))?.flags, { v: 6 });
  await assert.rejects(loadConfig({ cwd: d, file: 'missing.yaml' }), configError(/missing\.yaml: cannot load the config file: no such file$/));
  await assert.rejects(loadConfig({ cwd: d, file: 'package.json' }), configError(/package\.json: has no "plat" property/));
});

test('schema errors name the file and the JSON path', async () => {
  const d = dir({
    'plat.config.json': JSON.stringify({
      plugins: ['./a.mjs', 5, [], ['./b.mjs', 'opts']],
      flags: { 'secure-port': null, list: [1] },
      roles: { apisrver: {}, apiserver: { plugins: [{}], extra: 1 } },
      plugin: [],
    }),
  });
  const file = path.join(d, 'plat.config.json');
  const err = await loadConfig({ cwd: d }).then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ConfigError);
  const lines = err.message.split('\n');
  for (const want of [
    `${file}: /plugins/1: must be string or array`,
    `${file}: /plugins/2: must NOT have fewer than 1 items`,
    `${file}: /plugins/3/1: must be object`,
    `${file}: /flags/secure-port: must be string, number, boolean, array or object`,
    `${file}: /flags/list/0: must be string`,
    `${file}: /roles/apisrver: unknown property (expected one of: apiserver, controller-manager, nodeagent, all)`,
    `${file}: /roles/apiserver/plugins/0: must be string or array`,
    `${file}: /roles/apiserver/extra: unknown property (expected one of: plugins, flags)`,
    `${file}: /plugin: unknown property (expected one of: plugins, flags, roles)`,
  ]) {
    assert.ok(lines.includes(want), `missing line: ${want}\n${err.message}`);
  }
  const notObject = dir({ '.platrc.yaml': '- just a list\n' });
  await assert.rejects(loadConfig({ cwd: notObject }), configError(/\.platrc\.yaml: \/: must be object$/));
});

test('syntax errors name the file and the line', async () => {
  let d = dir({ '.platrc.yaml': 'flags:\n  a: [1, 2\n  b: c\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/\.platrc\.yaml: line 3, column \d+: YAML syntax error: /));
  d = dir({ '.platrc.yml': 'flags:\n  a: 1\n  a: 2\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/\.platrc\.yml: line 3, column 3: YAML syntax error: Map keys must be unique/));
  d = dir({ 'plat.config.json': '{\n  "flags": {\n    "a": 1,\n  }\n}\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.json: line 4, column 3: JSON syntax error: expected a double-quoted property name, found "}"/));
  d = dir({ 'package.json': '{\n  "name": "x",\n  "plat": {\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/package\.json: line 4, column 1: JSON syntax error: unexpected end of input/));
  // TypeScript would write out its guess (an empty plugin list): refused instead, as .mjs is.
  d = dir({ 'plat.config.ts': 'export default { plugins: [ };\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.ts: line 1, column 29: TypeScript syntax error: Expression or comma expected\.$/));
  d = dir({ 'plat.config.ts': 'export default { flags: { v: 1 } plugins: [] \n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.ts: line 1, column 34: TypeScript syntax error: ',' expected\.$/));
  d = dir({ 'plat.config.mjs': 'export default { flags: ;\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.mjs: cannot load the config file: Unexpected token ';' \(\S+plat\.config\.mjs:1:25\)$/));
});

test('cosmiconfig\'s meta config in the working directory is not read: plat\'s search places and PLAT_CONFIG alone decide', async () => {
  const d = dir({
    '.config/config.json': JSON.stringify({ cosmiconfig: { searchPlaces: ['weird.json'] } }),
    'weird.json': '{ "flags": { "v": 1 } }',
    'plat.config.json': '{ "flags": { "v": 2 } }',
  });
  const broken = dir({ 'package.json': '{ "name": "x", }' });
  const elsewhere = path.join(dir({ 'explicit.json': '{ "flags": { "v": 3 } }' }), 'explicit.json');
  const cwd = process.cwd();
  try {
    process.chdir(d);
    assert.equal((await loadConfig({ cwd: d }))?.filepath, path.join(d, 'plat.config.json'));
    // cosmiconfig() parsed the working directory's package.json for its meta config before anything
    // else: one that does not parse stopped every start, the explicit file's too, with a stack trace.
    process.chdir(broken);
    assert.equal((await loadConfig({ cwd: broken, file: elsewhere }))?.filepath, elsewhere);
  } finally {
    process.chdir(cwd);
  }
});

test('per-role sections', async () => {
  const d = dir({
    'plat.config.yaml': [
      'plugins: [./common.mjs]',
      'flags: {v: 1}',
      'roles:',
      '  apiserver:',
      '    plugins: [./a.mjs, [./b.mjs, {x: 1}]]',
      '    flags: {secure-port: 7443, feature-gates: {Foo: true}}',
      '  nodeagent:',
      '    flags: {v: 3}',
      '',
    ].join('\n'),
  });
  const c = await loadConfig({ cwd: d });
  assert.ok(c);
  assert.deepEqual(c.flags, { v: 1 });
  assert.deepEqual(Object.keys(c.roles), ['apiserver', 'nodeagent']);
  assert.deepEqual(c.roles['apiserver']?.flags, { 'secure-port': 7443, 'feature-gates': { Foo: true } });
  assert.deepEqual(
    c.roles['apiserver']?.plugins.map((p) => [p.spec, p.options, p.index, p.pointer]),
    [
      ['./a.mjs', undefined, 0, '/roles/apiserver/plugins/0'],
      ['./b.mjs', { x: 1 }, 1, '/roles/apiserver/plugins/1'],
    ],
  );
  assert.deepEqual(c.roles['nodeagent'], { plugins: [], flags: { v: 3 } });
});

const PLUGIN_FILES: Record<string, string> = {
  'object.mjs': 'export default { name: "ObjectPlugin", apply() {} };\n',
  'named.mjs': 'export const plugin = { name: "NamedPlugin", apply() {} };\n',
  'class.mjs': 'export default class ClassPlugin { constructor(o) { this.name = "ClassPlugin"; this.options = o; } apply() {} }\n',
  'factory.mjs': 'export default async (o) => ({ name: "Factory" + o.n, apply() {} });\n',
  'common.cjs': 'module.exports = { name: "CjsPlugin", apply() {} };\n',
  'cjs-named.cjs': 'exports.plugin = { name: "CjsNamed", apply() {} };\n',
  'no-export.mjs': 'export const nothing = 1;\n',
  'imports-plat.mjs': 'import { parseCsr } from "plat";\nexport default { name: "ImportsPlat", apply() { void parseCsr; } };\n',
  'no-name.mjs': 'export default { apply() {} };\n',
  'no-apply.mjs': 'export default { name: "Half" };\n',
  'apply-number.mjs': 'export default { name: "Odd", apply: 3 };\n',
  'default-number.mjs': 'export default 42;\n',
  'empty.mjs': '\n',
  'cjs-signer.cjs': 'exports.signer = { name: "S", apply() {} };\n',
  'throws.mjs': 'export default () => { throw new Error("boom"); };\n',
  'broken.mjs': 'export default {\n',
  'bad-token.mjs': 'export default {\n  name: "x",\n  apply() { let a = ; },\n};\n',
  'bad-token.cjs': 'module.exports = {\n  apply() { let a = ; },\n};\n',
  'imports-bad.mjs': 'import "./bad-token.mjs";\nexport default { name: "y", apply() {} };\n',
  'twice.mjs': 'export default { name: "TwiceM", apply() {} };\n',
  'twice.js': 'export default { name: "TwiceJ", apply() {} };\n',
  // ESM-only package: only the "import" condition.
  'node_modules/plat-plugin-esm/package.json': '{"name": "plat-plugin-esm", "type": "module", "exports": {".": {"import": "./index.js"}, "./extra": "./extra.js"}}',
  'node_modules/plat-plugin-esm/index.js': 'export default { name: "EsmPackage", apply() {} };\n',
  'node_modules/plat-plugin-esm/extra.js': 'export const plugin = { name: "EsmExtra", apply() {} };\n',
  // CommonJS package with "main".
  'node_modules/@org/plat-plugin-cjs/package.json': '{"name": "@org/plat-plugin-cjs", "main": "lib/main.js"}',
  'node_modules/@org/plat-plugin-cjs/lib/main.js': 'module.exports = class CjsClass { constructor() { this.name = "CjsClass"; } apply() {} };\n',
};

test('importPlugin: paths, packages and export shapes', async () => {
  const d = dir(PLUGIN_FILES);
  const sub = path.join(d, 'sub');
  mkdirSync(sub);
  const ref = (spec: string | object, options?: unknown): PluginRef => ({ spec, options, index: 0, pointer: '/plugins/0', filepath: path.join(d, 'plat.config.mjs') });
  const name = async (spec: string | object, options?: unknown, base = d) => (await importPlugin(ref(spec, options), base)).name;

  assert.equal(await name('./object.mjs'), 'ObjectPlugin');
  assert.equal(await name('./named.mjs'), 'NamedPlugin');
  assert.equal(await name('../class.mjs', undefined, sub), 'ClassPlugin', 'relative to the base directory');
  assert.equal(await name(path.join(d, 'factory.mjs'), { n: 7 }), 'Factory7', 'absolute path; factory gets the options');
  assert.equal(await name('./common.cjs'), 'CjsPlugin');
  assert.equal(await name('./cjs-named.cjs'), 'CjsNamed');
  assert.equal(await name('plat-plugin-esm'), 'EsmPackage');
  assert.equal(await name('plat-plugin-esm/extra'), 'EsmExtra');
  assert.equal(await name('plat-plugin-esm', undefined, sub), 'EsmPackage', 'packages resolve from parent directories');
  assert.equal(await name('@org/plat-plugin-cjs'), 'CjsClass');
  const cls = (await importPlugin(ref('./class.mjs', { x: 1 }), d)) as unknown as { options: unknown };
  assert.deepEqual(cls.options, { x: 1 }, 'classes are constructed with the options');
  const inline = { name: 'Inline', apply() {} };
  assert.equal(await importPlugin(ref(inline), d), inline);
});

test('importPlugin: clear errors', async () => {
  const d = dir(PLUGIN_FILES);
  const file = path.join(d, 'plat.config.mjs');
  const load = (spec: string | object) => importPlugin({ spec, options: undefined, index: 0, pointer: '/plugins/0', filepath: file }, d);
  const at = `${file}: /plugins/0`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await assert.rejects(load('./missing.mjs'), configError(new RegExp(`^${at}: cannot load plugin "\\./missing\\.mjs": no such file: .*missing\\.mjs$`)));
  // Node's ESM loader adds no extension: the files that exist with one are named as the entry would.
  await assert.rejects(load('./object'), configError(new RegExp(`^${at}: cannot load plugin "\\./object": no such file: .*object \\(did you mean \\./object\\.mjs\\?\\)$`)));
  await assert.rejects(load('./twice'), configError(/no such file: .*twice \(did you mean \.\/twice\.mjs or \.\/twice\.js\?\)$/));
  await assert.rejects(load('no-such-package'), configError(new RegExp(`^${at}: cannot load plugin "no-such-package": cannot find package "no-such-package" from `)));
  await assert.rejects(load('plat-plugin-esm/hidden'), configError(/does not export "\.\/hidden"/));
  // A wrong shape says what the module offers instead.
  await assert.rejects(load('./no-export.mjs'), configError(/plugin "\.\/no-export\.mjs": the module exports no plugin: it has no default export \(it exports: nothing\) \(expected a default or "plugin" export/));
  await assert.rejects(load('./no-name.mjs'), configError(/plugin "\.\/no-name\.mjs": the plugin has no string "name"/));
  await assert.rejects(load('./no-apply.mjs'), configError(/the module exports no plugin: its default export is an object without an "apply" function \(keys: name\) \(expected/));
  await assert.rejects(load('./apply-number.mjs'), configError(/the module exports no plugin: its default export is an object whose "apply" is number, not a function \(keys: name, apply\) \(expected/));
  await assert.rejects(load('./default-number.mjs'), configError(/the module exports no plugin: its default export is number \(expected/));
  await assert.rejects(load('./empty.mjs'), configError(/the module exports no plugin: it exports nothing \(expected/));
  await assert.rejects(load('./cjs-signer.cjs'), configError(/the module exports no plugin: its default export is an object without an "apply" function \(keys: signer\) \(expected/));
  await assert.rejects(load('./throws.mjs'), configError(/plugin "\.\/throws\.mjs": creating the plugin failed: boom/));
  // Syntax errors say where (Node 20 gives an ES module's place only to `node --check`).
  const place = (f: string) => path.join(d, f).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await assert.rejects(load('./broken.mjs'), configError(new RegExp(`cannot load plugin "\\./broken\\.mjs": Unexpected end of input \\(${place('broken.mjs')}:2\\)$`)));
  await assert.rejects(load('./bad-token.mjs'), configError(new RegExp(`: Unexpected token ';' \\(${place('bad-token.mjs')}:3:21\\)$`)));
  await assert.rejects(load('./bad-token.cjs'), configError(new RegExp(`: Unexpected token ';' \\(${place('bad-token.cjs')}:2:21\\)$`)));
  await assert.rejects(load('./imports-bad.mjs'), configError(/cannot load plugin "\.\/imports-bad\.mjs": Unexpected token ';' \(in a module it imports\)$/));
  // A plugin importing plat from outside the checkout: which file imports it, and how to make it resolve.
  await assert.rejects(load('./imports-plat.mjs'), configError(new RegExp(`cannot load plugin "\\./imports-plat\\.mjs": Cannot find package 'plat' imported from ${place('imports-plat.mjs')} \\(a plugin outside the plat checkout needs plat in a node_modules above it: \`npm link plat\``)));
  await assert.rejects(load({ name: 'Half' }), configError(/plugin object: the plugin "Half" has no "apply" function/));
  // Without pointer and file, the message still says which entry.
  await assert.rejects(importPlugin({ spec: './missing.mjs', options: undefined, index: 3 }, d), configError(/: \/plugins\/3: cannot load plugin/));
});

test('JS configs may list plugin objects; apply is checked', async () => {
  let d = dir({ 'plat.config.mjs': 'export default { plugins: [{ name: "Inline", apply() {} }, "./x.mjs"] };\n' });
  const c = await loadConfig({ cwd: d });
  assert.equal((c?.plugins[0]?.spec as { name: string }).name, 'Inline');
  assert.equal(c?.plugins[1]?.spec, './x.mjs');
  d = dir({ 'plat.config.mjs': 'export default { plugins: [{ name: "NoApply" }, { apply() {} }] };\n' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.mjs: \/plugins\/0: a plugin object must have an "apply" function(\n|$)/));
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.mjs: \/plugins\/1: a plugin object must have a string "name"/));
  d = dir({ 'plat.config.json': '{"plugins": [{"name": "x"}]}' });
  await assert.rejects(loadConfig({ cwd: d }), configError(/plat\.config\.json: \/plugins\/0: must be string or array/));
});

test('an empty first file is the config file, an empty config: the files after it are not read', async () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ '.platrc.json': '', 'plat.config.yml': 'flags: {v: 4}\n' }, '.platrc.json'],
    [{ 'plat.config.json': '  \n', 'plat.config.yaml': 'flags: {v: 4}\n' }, 'plat.config.json'],
    [{ 'plat.config.json': 'null', 'plat.config.yaml': 'flags: {v: 4}\n' }, 'plat.config.json'],
    [{ '.platrc.yaml': '# nothing yet\n', 'plat.config.json': '{"flags": {"v": 4}}' }, '.platrc.yaml'],
    [{ '.platrc': '---\n', 'plat.config.json': '{"flags": {"v": 4}}' }, '.platrc'],
    [{ 'plat.config.mjs': 'export default null;\n', 'plat.config.yaml': 'flags: {v: 4}\n' }, 'plat.config.mjs'],
  ];
  for (const [files, first] of cases) {
    const d = dir(files);
    const c = await loadConfig({ cwd: d });
    assert.equal(c?.filepath, path.join(d, first), first);
    assert.deepEqual(c?.flags, {}, first);
    assert.deepEqual(c?.plugins, [], first);
  }
  // Named explicitly, a comment-only YAML file is an empty config too (not "has no plat property").
  const d = dir({ 'conf/empty.yaml': '# nothing yet\n' });
  assert.deepEqual((await loadConfig({ cwd: d, file: 'conf/empty.yaml' }))?.flags, {});
  // package.json without "plat" is still no config file.
  const p = dir({ 'package.json': '{"name": "x"}', 'plat.config.yaml': 'flags: {v: 5}\n' });
  assert.deepEqual((await loadConfig({ cwd: p }))?.flags, { v: 5 });
});

test('a JS or TS config without a default export is an error naming the file and its exports', async () => {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cases: Array<[string, string, string]> = [
    ['plat.config.mjs', 'export const plugins = ["./p.mjs"];\n', 'it exports: plugins'],
    ['.platrc.mjs', 'export const plugins = [];\nexport const flags = {};\n', 'it exports: flags, plugins'],
    ['plat.config.js', 'export {};\n', 'it exports nothing'],
    ['plat.config.ts', 'export const plugins: string[] = [];\n', 'it exports: plugins'],
  ];
  for (const [name, content, exported] of cases) {
    // A file later in the search order is not read instead (plat.config.ts is the last place).
    const later = name.endsWith('.ts') ? {} : { 'plat.config.yaml': 'flags: {v: 8}\n' };
    const d = dir({ [name]: content, ...later, 'package.json': name === 'plat.config.js' ? '{"type": "module"}' : '{}' });
    const message = new RegExp(`^${esc(path.join(d, name))}: has no default export \\(${esc(exported)}\\)$`);
    await assert.rejects(loadConfig({ cwd: d }), configError(message), name);
    await assert.rejects(loadConfig({ cwd: d, file: name }), configError(message), `${name} named explicitly`);
  }
  // CommonJS: module.exports is the default export, even an empty one.
  const d = dir({ 'plat.config.cjs': 'exports.plugins = [];\n' });
  assert.deepEqual((await loadConfig({ cwd: d }))?.plugins, []);
});

test('importPlugin: a package without an entry point says why require could not resolve it', async () => {
  const d = dir({
    'node_modules/no-main/package.json': '{"name": "no-main"}',
    'node_modules/bad-main/package.json': '{"name": "bad-main", "main": "lib/missing.js"}',
  });
  const load = (spec: string) => importPlugin({ spec, options: undefined, index: 0, pointer: '/plugins/0', filepath: path.join(d, 'plat.config.mjs') }, d);
  const pkg = (name: string) => path.join(d, 'node_modules', name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await assert.rejects(load('no-main'), configError(new RegExp(
    `cannot load plugin "no-main": package "no-main" at ${pkg('no-main')}: cannot resolve "no-main": Cannot find module 'no-main' \\(its package.json has no "exports" or "main", and it has no index.js\\)$`)));
  await assert.rejects(load('bad-main'), configError(new RegExp(
    `cannot load plugin "bad-main": package "bad-main" at ${pkg('bad-main')}: cannot resolve "bad-main": Cannot find module '.*missing\\.js'. Please verify that the package.json has a valid "main" entry$`)));
  await assert.rejects(load('no-main/sub'), configError(/package "no-main" at .*: cannot resolve "no-main\/sub": Cannot find module 'no-main\/sub'$/));
});
