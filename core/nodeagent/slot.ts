// A value one subsystem owns and others read or wait for; setting it again (a rotated certificate)
// tells every listener.
export class Slot<T> {
  #value: T | undefined;
  #set = false;
  readonly #waiters = new Set<(v: T) => void>();
  readonly #listeners = new Set<(v: T) => void>();

  get(): T | undefined { return this.#value; }
  isSet(): boolean { return this.#set; }

  set(value: T): void {
    this.#value = value;
    this.#set = true;
    for (const w of [...this.#waiters]) w(value);
    this.#waiters.clear();
    for (const l of [...this.#listeners]) l(value);
  }

  /** Resolves with the value once it is set (at once if it is); rejects when `signal` aborts first. */
  wait(signal?: AbortSignal): Promise<T> {
    if (this.#set) return Promise.resolve(this.#value as T);
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) { reject(signal.reason); return; }
      const onAbort = () => { this.#waiters.delete(done); reject(signal!.reason); };
      const done = (v: T) => { signal?.removeEventListener('abort', onAbort); resolve(v); };
      this.#waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Calls `listener` on every later set; returns the function that stops it. */
  onChange(listener: (v: T) => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }
}
