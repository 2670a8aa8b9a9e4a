// Runs the machine's kubectl against a running plat with a fresh cache directory, so discovery and
// OpenAPI cached by an earlier run cannot hide a server change (kubectl-wire.md §0).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface KubectlResult { code: number; stdout: string; stderr: string }

export class Kubectl {
  readonly cacheDir = mkdtempSync(path.join(os.tmpdir(), 'kubectl-cache-'));
  constructor(readonly kubeconfig: string) {}
  get env(): NodeJS.ProcessEnv {
    return { ...process.env, KUBECONFIG: this.kubeconfig, KUBECACHEDIR: this.cacheDir, HOME: this.cacheDir };
  }
  run(args: string[], input?: string): Promise<KubectlResult> {
    return new Promise((resolve) => {
      const child = execFile('kubectl', args, { env: this.env, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
      if (input !== undefined) { child.stdin!.write(input); child.stdin!.end(); }
    });
  }
  /** Starts a long-running kubectl (e.g. `get -w`) and collects its output. */
  start(args: string[]): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
    const child = spawn('kubectl', args, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
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
}

/** Polls `check` (bounded) until it returns true; for output that arrives asynchronously. */
export async function eventually(check: () => boolean, what: string, attempts = 100, everyMs = 100): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
