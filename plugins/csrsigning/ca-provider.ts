// The current signing CA of one certificate/key file pair, kept fresh as upstream's dynamic
// certificate content is: the files themselves are watched (through their symlinks, so a Secret
// volume's `..data` swap or a symlink target rewritten elsewhere is seen) and watched again on
// every reload, since a file replaced by rename or deleted takes its watch with it; their
// directories are watched too, for a file created where there was none; and the files are re-read
// every minute anyway. A change is applied only when the new pair is valid; a bad pair
// (half-written, mismatched, two certificates) is logged and the current CA stays: what upstream's
// loader refuses with its queue's words (`key failed with : <error>`, logged by HandleError), the
// rest, which upstream only finds when it next signs, with the provider's error.
//
// A key file that group or others may access is used (upstream does not look at the mode, and a
// Secret volume mounts 0644 unless told otherwise), with a warning at start-up and at each new pair.
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/log.js';
import { CaLoaderError, readCaFiles } from './ca-loader.js';
import { loadSigningCa, parseSigningCa, type SigningCa } from './ca-pair.js';

export const RELOAD_INTERVAL_MS = 60_000;

/** Why the key file is readable by more than its owner, if it is. */
export function keyFileExposure(keyFile: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(keyFile).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  return `CA key file "${keyFile}" is accessible by group or others (mode ${mode.toString(8).padStart(4, '0')}); the signing key should be readable by its owner only (0600)`;
}

export interface CaProviderOptions {
  /** How often the files are re-read whatever the watches say; RELOAD_INTERVAL_MS by default. */
  readonly reloadIntervalMs?: number;
}

export class CaProvider {
  #current: SigningCa;
  #dirWatchers: FSWatcher[] = [];
  /** One per file, replaced at every reload (undefined while the file cannot be watched). */
  readonly #fileWatchers = new Map<string, FSWatcher | undefined>();
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;

  /** Reads the pair now; throws (naming the file) when it is not a usable CA. */
  constructor(readonly certFile: string, readonly keyFile: string, private readonly log: Logger, private readonly o: CaProviderOptions = {}) {
    this.#current = loadSigningCa(certFile, keyFile);
    this.#warn(this.#current);
  }

  #warn(ca: SigningCa): void {
    if (ca.warning) this.log.warn(ca.warning);
    const exposed = keyFileExposure(this.keyFile);
    if (exposed) this.log.warn(exposed);
  }

  current(): SigningCa { return this.#current; }

  /** Starts watching the files; stop() ends it. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.reload(), this.o.reloadIntervalMs ?? RELOAD_INTERVAL_MS);
    this.#timer.unref();
    const names = new Set([path.resolve(this.certFile), path.resolve(this.keyFile)]);
    for (const file of names) this.#fileWatchers.set(file, undefined);
    for (const dir of new Set([...names].map((f) => path.dirname(f)))) {
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(path.join(dir, name.toString()))) void this.reload();
        });
        w.on('error', (e) => this.log.warn('watching the CA files\' directory failed', { dir, error: e.message }));
        this.#dirWatchers.push(w);
      } catch (e) {
        this.log.warn('cannot watch the CA files\' directory', { dir, error: (e as Error).message });
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

  /** Re-reads the files and applies a changed, valid pair. Calls during a reload coalesce into one more. */
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
    for (const [file, old] of this.#fileWatchers) {
      old?.close();
      let w: FSWatcher | undefined;
      try {
        w = watch(file, { persistent: false }, () => void this.reload());
        w.on('error', () => { w?.close(); });
      } catch {
        w = undefined;
      }
      this.#fileWatchers.set(file, w);
    }
  }

  async #reloadOnce(): Promise<void> {
    const cur = this.#current;
    let next: SigningCa;
    try {
      const { certBytes, keyBytes } = await readCaFiles(this.certFile, this.keyFile);
      if (certBytes.equals(cur.certBytes) && keyBytes.equals(cur.keyBytes)) return;
      next = parseSigningCa(this.certFile, certBytes, this.keyFile, keyBytes);
    } catch (e) {
      // "key" is the loader's work-queue key.
      if (e instanceof CaLoaderError) this.log.error('Unhandled Error', { err: `key failed with : ${e.loaderError}` });
      else this.log.error('the CA files changed but cannot be used; still signing with the previous CA', { error: (e as Error).message });
      return;
    }
    this.#current = next;
    this.#warn(next);
    this.log.info('loaded a new signing CA', {
      certFile: this.certFile, subject: next.certificate.commonName, serial: next.certificate.serialNumber,
      notAfter: next.certificate.notAfter.toISOString(),
    });
  }
}
