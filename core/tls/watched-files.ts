// Content read from files and kept fresh while the process runs, as upstream's dynamiccertificates
// keep --tls-cert-file, --tls-sni-cert-key, --client-ca-file and the signing CA: the files are
// watched themselves (through their symlinks, so a Secret volume's `..data` swap or a symlink
// target rewritten elsewhere is seen) and watched again on every reload, since a file replaced by
// rename or deleted takes its watch with it; their directories are watched too, for a file created
// where there was none; and they are re-read every minute anyway. New content is taken only when it
// parses; a bad change (half-written, mismatched, empty) is logged and the current content stays.
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERRNO_TEXT, osErrorText } from '../go-os-error.js';
import type { Logger } from '../log.js';
import type { Changing } from './changing.js';

/** Upstream's re-check of every dynamic file, whatever the watches say. */
export const RELOAD_INTERVAL_MS = 60_000;

export interface WatchedFilesOptions<T> {
  /** Upstream's content name (`purpose::file`), in log lines. */
  readonly name: string;
  readonly files: readonly string[];
  /**
   * The content of the files' bytes; throws (or rejects) when they cannot be used. A reload waits
   * for it (an authenticator that must be ready before it serves); reloads meanwhile coalesce.
   */
  readonly parse: (contents: readonly Buffer[]) => T | Promise<T>;
  /** Upstream's V(2) line when new content is taken. */
  readonly loadedMessage: string;
  readonly log: Logger;
  /** RELOAD_INTERVAL_MS by default. */
  readonly reloadIntervalMs?: number;
  /** The files' bytes, in order; every file read with fs.readFile by default. */
  readonly read?: () => Promise<Buffer[]>;
  /** How a refused change is logged; by default as upstream's work queue does (`key failed with : <error>`). */
  readonly refused?: (e: unknown) => void;
  /**
   * Upstream's error line when a file cannot be watched (missing): its watch loop gives up and is
   * run again a minute later (`Failed to watch cert and key file, will retry later`).
   */
  readonly watchFailedMessage?: string;
  /**
   * True for a refusal the same bytes will always get (they do not decode or validate): those
   * bytes are then what later reloads compare with, so they are neither tried nor logged again
   * until they change, as upstream's trackers of config file data. By default every reload of
   * bytes other than the current content's tries them again.
   */
  readonly settled?: (e: unknown) => boolean;
  /** After new content is taken, before listeners hear of it. */
  readonly loaded?: (value: T) => void;
}

/** Go's os.ReadFile of each file in turn: the first error, in Go's words, stops it. */
async function readAll(files: readonly string[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const f of files) {
    try {
      out.push(await readFile(f));
    } catch (e) {
      throw new Error(osErrorText('open', f, e));
    }
  }
  return out;
}

export class WatchedFiles<T> implements Changing<T> {
  #current: T;
  #contents: readonly Buffer[];
  readonly #listeners = new Set<(value: T) => void>();
  #dirWatchers: FSWatcher[] = [];
  /** One per file, replaced at every reload (undefined while the file cannot be watched). */
  readonly #fileWatchers = new Map<string, FSWatcher | undefined>();
  /** Each watched path's name as given (upstream's error names the file as its flag did). */
  readonly #given: ReadonlyMap<string, string>;
  /** A file could not be watched at the last try: upstream's watch loop is down until its next run. */
  #watchDown = false;
  /** The periodic reload is upstream's watch loop run again: a failure then is logged again. */
  #watchRetry = false;
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;

  /** `initial` is what start-up read and checked, with its own errors. */
  constructor(private readonly o: WatchedFilesOptions<T>, initial: { readonly contents: readonly Buffer[]; readonly value: T }) {
    this.#current = initial.value;
    this.#contents = initial.contents;
    this.#given = new Map(o.files.map((f) => [path.resolve(f), f]));
  }

  /**
   * Reads the files' bytes, then runs `load`, start-up's own reading and checking (with its own
   * errors, which it throws): content changed in between is seen by the first reload.
   */
  static open<T>(o: WatchedFilesOptions<T>, load: () => T): WatchedFiles<T> {
    let contents: Buffer[];
    try {
      contents = o.files.map((f) => readFileSync(f));
    } catch {
      contents = [];
    }
    return new WatchedFiles(o, { contents, value: load() });
  }

  get name(): string { return this.o.name; }

  current(): T { return this.#current; }

  onChange(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  /** Starts watching the files; stop() ends it. */
  start(): void {
    if (this.#timer) return;
    this.#watchDown = false;
    this.#timer = setInterval(() => { this.#watchRetry = true; void this.reload(); }, this.o.reloadIntervalMs ?? RELOAD_INTERVAL_MS);
    this.#timer.unref();
    const names = new Set(this.#given.keys());
    for (const file of names) this.#fileWatchers.set(file, undefined);
    for (const dir of new Set([...names].map((f) => path.dirname(f)))) {
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(path.join(dir, name.toString()))) void this.reload();
        });
        w.on('error', (e) => this.o.log.warn('watching a directory failed', { name: this.o.name, dir, error: e.message }));
        this.#dirWatchers.push(w);
      } catch (e) {
        this.o.log.warn('cannot watch a directory', { name: this.o.name, dir, error: (e as Error).message });
      }
    }
    // Watches the files, and sees a change made between loading them and now.
    void this.reload();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const w of this.#dirWatchers.splice(0)) w.close();
    for (const w of this.#fileWatchers.values()) w?.close();
    this.#fileWatchers.clear();
  }

  /** Re-reads the files and takes changed, usable content. Calls during a reload coalesce into one more. */
  reload(): Promise<void> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      do {
        this.#again = false;
        this.#watchFiles();
        await this.#reloadOnce();
      } while (this.#again);
    })().finally(() => { this.#reloading = undefined; });
    return this.#reloading;
  }

  /**
   * (Re)places the watch on each file, before the files are read: a watch follows the file a path
   * named when it was placed, which a rename, a deletion or a symlink swap leaves behind. A file
   * that cannot be watched now (missing) is left to its directory's watch and the timer.
   */
  #watchFiles(): void {
    let failed: string | undefined;
    for (const [file, old] of this.#fileWatchers) {
      old?.close();
      let w: FSWatcher | undefined;
      try {
        w = watch(file, { persistent: false }, () => void this.reload());
        w.on('error', () => { w?.close(); });
      } catch (e) {
        w = undefined;
        // Upstream's loop stops at the first file it cannot watch (fsnotify's errno text).
        failed ??= `error adding watch for file ${this.#given.get(file) ?? file}: ${ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message}`;
      }
      this.#fileWatchers.set(file, w);
    }
    // Logged when the watch goes down and at each periodic retry while it stays down, as upstream's
    // loop (wait.Until, a minute), not at every reload an event on another file brings.
    const retry = this.#watchRetry;
    this.#watchRetry = false;
    if (failed !== undefined && this.o.watchFailedMessage && (!this.#watchDown || retry)) this.o.log.error(this.o.watchFailedMessage, { err: failed });
    this.#watchDown = failed !== undefined;
  }

  async #reloadOnce(): Promise<void> {
    let next: T;
    let contents: Buffer[] | undefined;
    try {
      contents = await (this.o.read ? this.o.read() : readAll(this.o.files));
      if (contents.length === this.#contents.length && contents.every((c, i) => c.equals(this.#contents[i]!))) return;
      next = await this.o.parse(contents);
    } catch (e) {
      if (contents && this.o.settled?.(e)) this.#contents = contents;
      if (this.o.refused) this.o.refused(e);
      // "key" is the work-queue key of upstream's controller.
      else this.o.log.error('Unhandled Error', { err: `key failed with : ${(e as Error).message}` });
      return;
    }
    this.#current = next;
    this.#contents = contents;
    this.o.log.v(2).info(this.o.loadedMessage, { name: this.o.name });
    this.o.loaded?.(next);
    for (const l of this.#listeners) {
      try {
        l(next);
      } catch (e) {
        this.o.log.error('applying new content failed', { name: this.o.name, error: (e as Error).message });
      }
    }
  }
}
