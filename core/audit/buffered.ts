// Upstream's buffered backend (batch mode): events wait in a buffer of bufferSize; a batch is
// written when it has maxBatchSize events or maxBatchWait has passed since its first one, at most
// throttleQPS batches a second (with throttleBurst saved up) when throttling is on. A full buffer
// drops the event and logs it. Shutdown writes what is left. With asyncDelegate (upstream's, on for
// the webhook backend) a batch is handed over without waiting for the one before it, so a slow or
// retrying webhook does not hold the next batches back; shutdown waits for all of them.
import type { Logger } from '../log.js';
import type { AuditEvent } from './event.js';
import { handlePluginError, type AuditBackend } from './backend.js';
import type { AuditErrorCounter } from '../metrics/apiserver-audit.js';
import { TokenBucket } from '../client/token-bucket.js';

export interface BatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  /** Milliseconds. */
  readonly maxBatchWait: number;
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
  readonly asyncDelegate?: boolean;
}

export class BufferedBackend implements AuditBackend {
  private readonly buffer: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly sending = new Set<Promise<void>>();
  private stopped = false;
  // Upstream's flowcontrol.NewTokenBucketRateLimiter: on the monotonic clock, so a wall clock
  // stepped back does not hold every batch (and shutdown) for the length of the step.
  private readonly throttle: TokenBucket | undefined;

  constructor(private readonly delegate: AuditBackend, private readonly c: BatchConfig, private readonly logger: Logger, private readonly count?: AuditErrorCounter) {
    this.throttle = c.throttleEnable ? new TokenBucket(c.throttleQPS, Math.max(1, c.throttleBurst)) : undefined;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    for (let i = 0; i < events.length; i++) {
      if (this.stopped) { handlePluginError(this.logger, 'buffered', new Error('audit backend shut down'), events.slice(i), this.count); return true; }
      if (this.buffer.length >= this.c.bufferSize) { handlePluginError(this.logger, 'buffered', new Error('audit buffer queue blocked'), events.slice(i), this.count); return true; }
      this.buffer.push(events[i]!);
    }
    if (this.buffer.length >= this.c.maxBatchSize) this.flushSoon(0);
    else this.flushSoon(this.c.maxBatchWait);
    return true;
  }

  private flushSoon(wait: number): void {
    if (this.timer && wait > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; this.running = this.running.then(() => this.drain(false)); }, wait);
    this.timer.unref?.();
  }

  /** Full batches now; an incomplete one only when its wait is over (or at shutdown). */
  private async drain(all: boolean): Promise<void> {
    let first = true;
    while (this.buffer.length > 0) {
      if (!first && !all && this.buffer.length < this.c.maxBatchSize) { this.flushSoon(this.c.maxBatchWait); return; }
      first = false;
      const batch = this.buffer.splice(0, this.c.maxBatchSize);
      if (this.throttle && !all) await this.throttle.wait();
      const sent = this.send(batch);
      if (!this.c.asyncDelegate) { await sent; continue; }
      this.sending.add(sent);
      void sent.then(() => this.sending.delete(sent));
    }
  }

  private async send(batch: readonly AuditEvent[]): Promise<void> {
    try { await this.delegate.processEvents(batch); } catch (e) { handlePluginError(this.logger, 'buffered', e, batch, this.count); }
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    this.running = this.running.then(() => this.drain(true));
    await this.running;
    await Promise.all(this.sending);
    await this.delegate.shutdown?.();
  }
}
