// The current signing CA of one certificate/key file pair, kept fresh as upstream's dynamic
// certificate content is: the files' directories are watched (a rotation by rename replaces the
// file, so the file itself cannot be watched) and the files are re-read every minute anyway. A
// change is applied only when the new pair is valid; a bad pair (half-written, mismatched, two
// certificates) is logged and the current CA stays.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/log.js';
import { loadSigningCa, parseSigningCa, readSigningCaFiles, type SigningCa } from './ca-pair.js';

export const RELOAD_INTERVAL_MS = 60_000;

export class CaProvider {
  #current: SigningCa;
  #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;

  /** Reads the pair now; throws (naming the file) when it is not a usable CA. */
  constructor(readonly certFile: string, readonly keyFile: string, private readonly log: Logger) {
    this.#current = loadSigningCa(certFile, keyFile);
  }

  current(): SigningCa { return this.#current; }

  /** Starts watching the files; stop() ends it. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.reload(), RELOAD_INTERVAL_MS);
    this.#timer.unref();
    const names = new Set([path.resolve(this.certFile), path.resolve(this.keyFile)]);
    for (const dir of new Set([...names].map((f) => path.dirname(f)))) {
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(path.join(dir, name.toString()))) void this.reload();
        });
        w.on('error', (e) => this.log.warn('watching the CA files failed; re-reading them every minute only', { dir, error: e.message }));
        this.#watchers.push(w);
      } catch (e) {
        this.log.warn('cannot watch the CA files; re-reading them every minute only', { dir, error: (e as Error).message });
      }
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const w of this.#watchers.splice(0)) w.close();
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
        await this.#reloadOnce();
      } while (this.#again);
    })().finally(() => { this.#reloading = undefined; });
    return this.#reloading;
  }

  async #reloadOnce(): Promise<void> {
    const cur = this.#current;
    let next: SigningCa;
    try {
      const { certBytes, keyBytes } = await readSigningCaFiles(this.certFile, this.keyFile);
      if (certBytes.equals(cur.certBytes) && keyBytes.equals(cur.keyBytes)) return;
      next = parseSigningCa(this.certFile, certBytes, this.keyFile, keyBytes);
    } catch (e) {
      this.log.error('the CA files changed but cannot be used; still signing with the previous CA', { error: (e as Error).message });
      return;
    }
    this.#current = next;
    this.log.info('loaded a new signing CA', {
      certFile: this.certFile, subject: next.certificate.commonName, serial: next.certificate.serialNumber,
      notAfter: next.certificate.notAfter.toISOString(),
    });
  }
}
