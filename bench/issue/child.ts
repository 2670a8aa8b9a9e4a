// A server the benchmark starts as a process of its own (plat all, its controller, cfssl serve):
// output kept (the last 64 KiB) for error messages, a bounded wait for the line that says it is
// ready, and a bounded stop (SIGTERM, then SIGKILL after 10 s).
import { spawn, type ChildProcess } from 'node:child_process';

const KEEP = 64 * 1024;

export class ChildServer {
  readonly #child: ChildProcess;
  #output = '';
  #exit: Promise<number | null>;

  constructor(readonly label: string, command: string, args: readonly string[], o: { cwd: string; env?: NodeJS.ProcessEnv }) {
    this.#child = spawn(command, args, { cwd: o.cwd, env: o.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      this.#output += d.toString('utf8');
      if (this.#output.length > 2 * KEEP) this.#output = this.#output.slice(-KEEP);
    };
    this.#child.stdout!.on('data', keep);
    this.#child.stderr!.on('data', keep);
    this.#exit = new Promise((resolve) => {
      this.#child.once('exit', (code) => resolve(code));
      this.#child.once('error', (e) => { this.#output += `\n${e.message}`; resolve(null); });
    });
  }

  get pid(): number | undefined { return this.#child.pid; }
  get output(): string { return this.#output.slice(-KEEP); }
  get running(): boolean { return this.#child.exitCode === null && this.#child.signalCode === null && this.#child.pid !== undefined; }

  /** Resolves with the first match of `pattern` in the output; rejects if the process exits or `timeoutMs` passes first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const done = (f: () => void) => { clearTimeout(timer); clearInterval(poll); f(); };
      const check = () => {
        const m = pattern.exec(this.#output);
        if (m) done(() => resolve(m));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`${this.label} did not get ready within ${timeoutMs / 1000} s:\n${this.output}`))), timeoutMs);
      const poll = setInterval(check, 20);
      void this.#exit.then((code) => done(() => reject(new Error(`${this.label} exited (code ${code}):\n${this.output}`))));
      check();
    });
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.#child.kill('SIGTERM');
    const killer = setTimeout(() => this.#child.kill('SIGKILL'), 10_000);
    await this.#exit;
    clearTimeout(killer);
  }
}
