// A TypeScript plugin project compiles against plat's published types: `import type { Plugin,
// Host, SigningRequest, ... } from 'plat'` resolves through package.json (exports' "types"
// condition) to the declarations the build emits, and they are strict enough to catch a wrong
// answer. The project is made as a plugin author makes one: plat under node_modules (a link here,
// as `npm link plat` makes), @types/node beside it, tsc with nodenext resolution and no skipLibCheck.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, tempDir } from '../helpers/plat.js';

const fixtures = path.join(repoRoot, 'test/examples/typed-plugin');

describe('a TypeScript plugin project', () => {
  it('type-checks against plat\'s declarations, which refuse a wrong signer answer', () => {
    const dir = tempDir('plat-typed-plugin-');
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(repoRoot, path.join(dir, 'node_modules', 'plat'), 'dir');
    symlinkSync(path.join(repoRoot, 'node_modules', '@types'), path.join(dir, 'node_modules', '@types'), 'dir');
    for (const f of ['typed-signer.mts', 'wrong-answer.mts']) copyFileSync(path.join(fixtures, f), path.join(dir, f));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'typed-plugin', type: 'module', peerDependencies: { plat: '*' } }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true, skipLibCheck: false, noEmit: true, types: ['node'],
      },
      include: ['*.mts'],
    }));
    const tsc = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    const diagnostics = tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    assert.equal(diagnostics.length, 1, tsc.stdout + tsc.stderr);
    assert.match(diagnostics[0]!, /(^|\/)wrong-answer\.mts\(5,\d+\): error TS2353: Object literal may only specify known properties, and 'certificate' does not exist in type/);
  });
});
