// Runs every compiled test file under dist/test with node's test runner (Node 20 takes file
// lists, not globs).
//
// Process warnings of the test files and of every process they start (plat servers, agents, CLI
// runs) go to one file, and a MaxListenersExceededWarning among them fails the run: a listener
// leak shows up as that warning long before it shows up as memory, and the test runner does not
// show its children's warnings (two leaks went unseen that way).
//
// Every process of the run gets TMPDIR set to one directory of its own, removed when the run ends
// however it ends: tests make data dirs, key files and kubectl caches under os.tmpdir(), and a
// test that fails or is interrupted before its cleanup would otherwise leave them in /tmp for
// good (20,000 directories had piled up on the development machine).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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
const runDir = mkdtempSync(path.join(os.tmpdir(), 'plat-test-run-'));
const warningsFile = path.join(runDir, 'warnings.log');
const tmpDir = path.join(runDir, 'tmp');
// As /tmp's own modes: a test runs a process as user nobody, which must reach its files here.
chmodSync(runDir, 0o755);
mkdirSync(tmpDir, { mode: 0o1777 });
chmodSync(tmpDir, 0o1777);
const nodeOptions = [process.env.NODE_OPTIONS, `--redirect-warnings=${JSON.stringify(warningsFile)}`].filter(Boolean).join(' ');
const concurrency = testConcurrency(process.env.PLAT_TEST_CONCURRENCY);
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: nodeOptions, TMPDIR: tmpDir },
});

function removeRunDir(): void {
  try {
    rmSync(runDir, { recursive: true, force: true });
  } catch (err) {
    // A tmpfs a test failed to unmount (EBUSY) is the likely cause; say where, do not hide it.
    process.stderr.write(`could not remove the run's temporary directory ${runDir}: ${(err as Error).message}\n`);
  }
}

// Ctrl-C reaches the whole process group, the test runner included; wait for it to stop so the
// directory goes after its last process.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => { child.kill(signal); });
}

child.on('exit', (code, signal) => {
  let warnings = '';
  try { warnings = readFileSync(warningsFile, 'utf8'); } catch { /* no process warned */ }
  removeRunDir();
  const lines = warnings.split('\n').filter((l) => /^\(node:\d+\) \w+/.test(l));
  const leaks = lines.filter((l) => l.includes('MaxListenersExceededWarning'));
  if (lines.length > 0) process.stderr.write(`\nprocess warnings from the test processes (${lines.length}):\n${lines.join('\n')}\n`);
  if (leaks.length > 0) {
    process.stderr.write(`\n${leaks.length} MaxListenersExceededWarning: a listener leak somewhere (rerun the file with NODE_OPTIONS=--trace-warnings to see where)\n`);
    process.exit(1);
  }
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
});

/**
 * Files run side by side, one more than the cores and at least three: a test waits on the servers
 * and processes it starts, and node's default (one less than the cores) runs the files one at a
 * time on a 2-core machine. PLAT_TEST_CONCURRENCY overrides (1: one at a time, to rule out
 * interference when a test fails).
 */
function testConcurrency(value: string | undefined): number {
  if (value === undefined || value === '') return Math.max(3, os.availableParallelism() + 1);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`PLAT_TEST_CONCURRENCY=${value}: want a whole number of test files at a time, at least 1\n`);
    process.exit(2);
  }
  return n;
}
