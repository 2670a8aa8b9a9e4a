// Runs every compiled test file under dist/test with node's test runner (Node 20 takes file
// lists, not globs).
//
// Process warnings of the test files and of every process they start (plat servers, agents, CLI
// runs) go to one file, and a MaxListenersExceededWarning among them fails the run: a listener
// leak shows up as that warning long before it shows up as memory, and the test runner does not
// show its children's warnings (two leaks went unseen that way).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);

function find(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return find(p);
    return name.endsWith('.test.js') ? [p] : [];
  });
}

const files = find(root).filter((f) => only.length === 0 || only.some((o) => f.includes(o))).sort();
if (files.length === 0) {
  process.stderr.write('no test files found\n');
  process.exit(1);
}
const warningsDir = mkdtempSync(path.join(os.tmpdir(), 'plat-test-warnings-'));
const warningsFile = path.join(warningsDir, 'warnings.log');
const nodeOptions = [process.env.NODE_OPTIONS, `--redirect-warnings=${JSON.stringify(warningsFile)}`].filter(Boolean).join(' ');
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions } });

let warnings = '';
try { warnings = readFileSync(warningsFile, 'utf8'); } catch { /* no process warned */ }
rmSync(warningsDir, { recursive: true, force: true });
const lines = warnings.split('\n').filter((l) => /^\(node:\d+\) \w+/.test(l));
const leaks = lines.filter((l) => l.includes('MaxListenersExceededWarning'));
if (lines.length > 0) process.stderr.write(`\nprocess warnings from the test processes (${lines.length}):\n${lines.join('\n')}\n`);
if (leaks.length > 0) {
  process.stderr.write(`\n${leaks.length} MaxListenersExceededWarning: a listener leak somewhere (rerun the file with NODE_OPTIONS=--trace-warnings to see where)\n`);
  process.exit(1);
}
process.exit(r.status ?? 1);
