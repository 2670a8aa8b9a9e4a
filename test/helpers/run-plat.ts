// Runs the real `plat` command: to completion (for --help, --version and start-up errors), or in
// the background until its log says it serves.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { platBin, repoRoot } from './plat.js';

export interface Finished { code: number | null; stdout: string; stderr: string }

export function runPlat(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Finished {
  const r = spawnSync(process.execPath, [platBin, ...args], {
    cwd: opts.cwd ?? repoRoot, env: { ...process.env, ...opts.env }, encoding: 'utf8', timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runPlat without blocking the event loop: for commands talking to a server in this process. */
export function runPlatAsync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(process.execPath, [platBin, ...args], { cwd: opts.cwd ?? repoRoot, env: { ...process.env, ...opts.env }, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Background { child: ChildProcess; output: () => string; stop(): Promise<void> }

/** Starts plat and resolves once `ready` matches its output (rejects if it exits first). */
export async function startPlat(args: string[], ready: RegExp, opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Background> {
  const child = spawn(process.execPath, [platBin, ...args], {
    cwd: opts.cwd ?? repoRoot, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (d: Buffer) => { out += d.toString(); };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`plat did not become ready within 30s:\n${out}`)), 30_000);
    const check = () => { if (ready.test(out)) { clearTimeout(timer); resolve(); } };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`plat exited with ${code}:\n${out}`)); });
  });
  return {
    child, output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
