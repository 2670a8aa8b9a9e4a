// A one-line progress bar on a terminal: the work is planned in seconds up front, each step
// reports the fraction of itself done. Silent when the stream is not a TTY (logs, CI, pipes).
import type { WriteStream } from 'node:tty';

export class Progress {
  readonly #out: WriteStream | undefined;
  readonly #total: number;
  #done = 0;
  #label = '';
  #lastDraw = 0;

  /** `totalSeconds`: the planned duration of all steps. */
  constructor(totalSeconds: number, stream: NodeJS.WriteStream = process.stderr) {
    this.#out = stream.isTTY ? (stream as WriteStream) : undefined;
    this.#total = Math.max(totalSeconds, 1e-9);
  }

  /** A step of `seconds` planned seconds; returns its tick (fraction of the step done) and ends it on `end()`. */
  step(label: string, seconds: number): { tick: (fraction: number) => void; end: () => void } {
    const base = this.#done;
    this.#label = label;
    this.#draw(base, true);
    return {
      tick: (f) => this.#draw(base + f * seconds, false),
      end: () => { this.#done = base + seconds; this.#draw(this.#done, true); },
    };
  }

  /** Clears the line (call before printing results). */
  finish(): void {
    if (this.#out) this.#out.write('\r\x1b[2K');
  }

  #draw(done: number, force: boolean): void {
    if (!this.#out) return;
    const now = Date.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const f = Math.min(1, done / this.#total);
    const width = 30;
    const full = Math.round(f * width);
    const cols = this.#out.columns || 80;
    const line = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${String(Math.round(f * 100)).padStart(3)}%  ${this.#label}`;
    this.#out.write(`\r\x1b[2K${line.slice(0, cols - 1)}`);
  }
}
