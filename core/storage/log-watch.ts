// A watch over an event log: replays history from the log page by page, as the consumer pulls,
// then switches to live events pushed by the engine after each commit.
//
// No gap, no duplicate: during replay live pushes are ignored (the log will have them); the switch
// to live happens synchronously after reading a page that reached the newest committed revision
// (the engine guarantees that revision is at least the last one it pushed), and from then on a
// pushed event is taken only when its revision is above everything seen so far.
//
// Memory is bounded: replay holds at most one page, and a live watcher whose consumer falls more
// than `bufferLimit` events, or events of more than `bufferBytes` (their `size`), behind is
// terminated: one consumer that stops reading must not hold every later write in memory. Its next next() rejects with StorageError
// 'Unresponsive' (the consumer resumes with a new watch from the last revision it saw; the log still
// has the events unless they were compacted meanwhile). Writers never wait for watchers.
import { deepFreeze } from './freeze.js';
import { StorageError, type StorageEvent, type Watch } from './storage.js';

export interface LogPage {
  /** Events for this watch's prefix with revision in (after, through], in revision order. */
  readonly events: StorageEvent[];
  /** Highest revision this page accounts for. */
  readonly through: number;
  /** `through` is the newest committed revision, and no lower than any revision already pushed. */
  readonly complete: boolean;
}

export interface LogSource {
  /** Reads the next page after `after`; throws StorageError 'Compacted' when history is gone. */
  readPage(prefix: string, after: number): LogPage;
  detach(watch: LogWatch): void;
}

interface Waiter {
  resolve(result: IteratorResult<StorageEvent>): void;
  reject(error: unknown): void;
}

const DONE: IteratorResult<StorageEvent> = { done: true, value: undefined };

// Events are frozen (the engine freezes what it pushes, replay freezes what it reads): watchers of
// one range share each pushed event instead of each copying it, and no consumer can change another's.

export class LogWatch implements Watch, AsyncIterator<StorageEvent> {
  /** Highest revision delivered, queued or skipped: everything at or below it is accounted for. */
  #cursor: number;
  #live = false;
  #done = false;
  #error: unknown;
  #queue: StorageEvent[] = [];
  /** The sizes of the queued events. */
  #queuedBytes = 0;
  readonly #waiters: Waiter[] = [];

  constructor(
    readonly prefix: string,
    fromRevision: number,
    private readonly source: LogSource,
    private readonly bufferLimit: number,
    /** Fails the first next() (the storage was already closed). */
    initialError?: StorageError,
    private readonly bufferBytes = Infinity,
  ) {
    this.#cursor = fromRevision;
    if (initialError) this.#error = initialError;
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageEvent> {
    return this;
  }

  next(): Promise<IteratorResult<StorageEvent>> {
    if (this.#error !== undefined) {
      const error = this.#error;
      this.#error = undefined;
      this.#end();
      return Promise.reject(error);
    }
    if (this.#done) return Promise.resolve(DONE);
    if (this.#queue.length === 0 && !this.#live) {
      try {
        this.#replay();
      } catch (e) {
        this.#end();
        return Promise.reject(e);
      }
    }
    const event = this.#queue.shift();
    if (event) {
      this.#queuedBytes -= event.size ?? 0;
      return Promise.resolve({ done: false, value: event });
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  get progress(): number {
    const next = this.#queue[0];
    return next ? next.revision - 1 : this.#cursor;
  }

  return(): Promise<IteratorResult<StorageEvent>> {
    this.close();
    return Promise.resolve(DONE);
  }

  close(): void {
    this.#error = undefined;
    this.#end();
  }

  /** Called by the engine with each committed event, in revision order. */
  push(event: StorageEvent): void {
    if (!this.#live || this.#done || event.revision <= this.#cursor) return;
    this.#cursor = event.revision;
    if (!event.key.startsWith(this.prefix)) return;
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter.resolve({ done: false, value: event });
      return;
    }
    this.#queue.push(event);
    this.#queuedBytes += event.size ?? 0;
    const behind = this.#queue.length > this.bufferLimit ? `${this.bufferLimit} events`
      : this.#queuedBytes > this.bufferBytes ? `${this.bufferBytes} bytes of events` : undefined;
    if (behind) {
      this.#queue = [];
      this.#queuedBytes = 0;
      this.#error = new StorageError(
        'Unresponsive', this.prefix,
        `watch on "${this.prefix}" terminated: consumer fell more than ${behind} behind; watch again from the last revision seen`,
      );
      this.source.detach(this);
    }
  }

  /** Ends the iteration: pending and later next() calls resolve done. */
  end(): void {
    this.#end();
  }

  #replay(): void {
    // Pages with nothing for this prefix are skipped without returning to the consumer.
    while (this.#queue.length === 0 && !this.#live) {
      const page = this.source.readPage(this.prefix, this.#cursor);
      for (const e of page.events) this.#queue.push(deepFreeze(e));
      this.#cursor = Math.max(this.#cursor, page.through);
      if (page.complete) this.#live = true;
    }
  }

  #end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.source.detach(this);
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
  }
}
