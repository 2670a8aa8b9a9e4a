// What a third-party plugin imports from 'plat' (package.json "exports" → core/plugin-api.ts): the
// README tells authors to ask the authorizer chain with authorize(host, attributes), so a plugin
// outside the checkout must be able to import it, and the types the hook table names.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importPlugin } from '../../core/config/load-config.js';
import { Host } from '../../core/host.js';
import { silentLogger } from '../../core/log.js';
import { repoRoot } from '../helpers/plat.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-plugin-api-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a plugin outside the checkout imports authorize and AuthorizationError from 'plat'", async () => {
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(repoRoot, path.join(dir, 'node_modules', 'plat'), 'dir');
  writeFileSync(path.join(dir, 'asker.mjs'), [
    "import { authorize, AuthorizationError } from 'plat';",
    'export default {',
    "  name: 'Asker',",
    '  apply(host) {',
    "    host.hooks.authorize.tap('Asker', (a) => (a.verb === 'boom' ? (() => { throw new Error('kaput'); })() : a.verb === 'approve' ? { decision: 'allow' } : undefined));",
    '    this.ask = (verb) => authorize(host, { user: { name: "u", groups: [] }, verb, isResourceRequest: false, path: "/", apiGroup: "", apiVersion: "", resource: "", subresource: "", namespace: "", name: "" })',
    '      .catch((e) => (e instanceof AuthorizationError ? `error: ${e.describe().join()}` : Promise.reject(e)));',
    '  },',
    '};',
  ].join('\n'));
  const plugin = await importPlugin({ spec: './asker.mjs', options: undefined, index: 0, pointer: '/plugins/0', filepath: path.join(dir, 'plat.config.mjs') }, dir);
  const host = new Host({ role: 'apiserver', logger: silentLogger });
  plugin.apply(host, undefined);
  const ask = (plugin as unknown as { ask(verb: string): Promise<unknown> }).ask;
  assert.deepEqual(await ask('approve'), { decision: 'allow' });
  assert.equal(await ask('get'), undefined);
  assert.equal(await ask('boom'), 'error: Asker: kaput');
});

// The README's list of types (Writing plugins) is what a TypeScript plugin writes: each must
// resolve from 'plat' for a consumer compiled with Node's module resolution.
test("every type the README lists resolves from 'plat' for a TypeScript consumer", async () => {
  const ts = (await import('typescript')).default;
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const listed = /import type \{([^}]+)\} from 'plat'/.exec(readme)?.[1]?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
  assert.ok(listed.includes('Plugin') && listed.includes('ControllerContext'), listed.join());
  const consumer = path.join(dir, 'ts-consumer');
  mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
  symlinkSync(repoRoot, path.join(consumer, 'node_modules', 'plat'), 'dir');
  writeFileSync(path.join(consumer, 'package.json'), '{"type": "module"}');
  const file = path.join(consumer, 'plugin.ts');
  writeFileSync(file, `import type { ${listed.join(', ')} } from 'plat';\nexport type Listed = [${listed.join(', ')}];\n`);
  const program = ts.createProgram([file], {
    noEmit: true, strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    typeRoots: [path.join(repoRoot, 'node_modules', '@types')], types: ['node'],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, []);
});

// A plugin package compiled by tsc as CommonJS (`"module": "commonjs"`, the default of a fresh
// `tsc --init` package without "type": "module") got `Module '"tapable"' has no default export`
// from plat's declarations unless it set esModuleInterop, and with skipLibCheck every hook's
// argument silently became `any`. Each module kind compiles without esModuleInterop, and its output
// loads as a plugin whose taps work. The consumer also hands createCertificate a PEM public key,
// which it always took but whose type refused it, and names its option types.
const CONSUMER = `import type { Plugin, Host, StartContext, CertificateTemplate, CreateCertificateOptions, GeneratedKeyPair } from 'plat';
import { StatusError, createCertificate, generateKeyPair, parseCertificate } from 'plat';
const key = generateKeyPair();
const plugin: Plugin = {
  name: 'Outside',
  apply(host: Host) {
    host.hooks.admitValidate.tapPromise('Outside', async (req) => {
      if (req.name === 'refused') throw new StatusError({ code: 403, reason: 'Forbidden', message: 'no ' + req.resource.toUpperCase(), details: {} });
    });
    host.hooks.start.tapPromise('Outside', async (ctx: StartContext) => { if (ctx.signal.aborted) throw new Error('aborted'); });
  },
};
const options = (template: CertificateTemplate, pair: GeneratedKeyPair): CreateCertificateOptions =>
  ({ template, publicKey: pair.publicKeyPem, signer: pair.privateKeyPem });
export const certificate = (cn: string): string => createCertificate(options(
  { subject: { commonName: cn }, notBefore: new Date(Date.now() - 1000), notAfter: new Date(Date.now() + 3_600_000) }, key,
)).certificatePem;
export const subjectOf = (pem: string): string | undefined => parseCertificate(pem).commonName;
export default plugin;
`;

for (const kind of [
  { name: 'CommonJS, module commonjs', type: undefined, module: 'CommonJS', moduleResolution: 'Node10' },
  { name: 'CommonJS, module nodenext', type: undefined, module: 'NodeNext', moduleResolution: 'NodeNext' },
  { name: 'ES module, module nodenext', type: 'module', module: 'NodeNext', moduleResolution: 'NodeNext' },
] as const) {
  test(`a TypeScript plugin compiled as ${kind.name} without esModuleInterop type-checks and loads`, async () => {
    const ts = (await import('typescript')).default;
    const consumer = mkdtempSync(path.join(dir, 'consumer-'));
    mkdirSync(path.join(consumer, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, path.join(consumer, 'node_modules', 'plat'), 'dir');
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'outside', ...(kind.type ? { type: kind.type } : {}) }));
    const file = path.join(consumer, 'plugin.ts');
    writeFileSync(file, CONSUMER);
    const program = ts.createProgram([file], {
      strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, outDir: path.join(consumer, 'out'),
      module: ts.ModuleKind[kind.module], moduleResolution: ts.ModuleResolutionKind[kind.moduleResolution],
      typeRoots: [path.join(repoRoot, 'node_modules', '@types')], types: ['node'],
    });
    const emitted = program.emit();
    const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(problems, []);
    const pluginFile = path.join(consumer, 'out', 'plugin.js');
    const plugin = await importPlugin({ spec: './out/plugin.js', options: undefined, index: 0, pointer: '/plugins/0', filepath: path.join(consumer, 'plat.config.mjs') }, consumer);
    assert.equal(plugin.name, 'Outside');
    const host = new Host({ role: 'apiserver', logger: silentLogger });
    plugin.apply(host, undefined);
    const req = (name: string) => ({ name, resource: 'certificatesigningrequests' }) as never;
    await host.hooks.admitValidate.promise(req('fine'));
    await assert.rejects(host.hooks.admitValidate.promise(req('refused')), { message: 'no CERTIFICATESIGNINGREQUESTS' });
    const mod = (await import(pathToFileURL(pluginFile).href)) as { certificate?: (cn: string) => string; subjectOf?: (pem: string) => string; default?: { certificate(cn: string): string; subjectOf(pem: string): string } };
    const api = mod.certificate ? mod : mod.default!;
    assert.equal(api.subjectOf!(api.certificate!('outside')), 'outside');
  });
}
