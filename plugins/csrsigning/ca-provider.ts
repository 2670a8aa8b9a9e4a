// The current signing CA of one certificate/key file pair, kept fresh as upstream's dynamic
// certificate content (purpose "csr-controller") is: core/tls's WatchedFiles watches and re-reads
// the files. A bad pair (half-written, mismatched, two certificates) is logged and the current CA
// stays: what upstream's loader refuses with its queue's words (`key failed with : <error>`,
// logged by HandleError), the rest, which upstream only finds when it next signs, with the
// provider's error.
//
// A key file that group or others may access is used (upstream does not look at the mode, and a
// Secret volume mounts 0644 unless told otherwise), with a warning when first read and at each new pair.
import { statSync } from 'node:fs';
import type { Logger } from '../../core/log.js';
import { CERT_KEY_LOADED, CERT_KEY_WATCH_FAILED } from '../../core/tls/dynamic-content.js';
import { WatchedFiles } from '../../core/tls/watched-files.js';
import { CaLoaderError, caLoaderName, readCaFiles, readCaFilesSync } from './ca-loader.js';
import { parseSigningCa, type SigningCa } from './ca-pair.js';

export { RELOAD_INTERVAL_MS } from '../../core/tls/watched-files.js';

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
  readonly #files: WatchedFiles<SigningCa>;
  /** Its loader's name, as upstream's DynamicCertKeyPairContent is named. */
  readonly name: string;

  /** Reads the pair now; throws (naming the file) when it is not a usable CA. */
  constructor(readonly certFile: string, readonly keyFile: string, private readonly log: Logger, o: CaProviderOptions = {}) {
    const { certBytes, keyBytes } = readCaFilesSync(certFile, keyFile);
    this.name = caLoaderName(certFile, keyFile);
    let value: SigningCa;
    try {
      value = parseSigningCa(certFile, certBytes, keyFile, keyBytes);
    } catch (e) {
      // Upstream's loader takes its first pair (and says so) before the CA provider parses it.
      if (!(e instanceof CaLoaderError)) log.v(2).info(CERT_KEY_LOADED, { name: this.name });
      throw e;
    }
    log.v(2).info(CERT_KEY_LOADED, { name: this.name });
    this.#files = new WatchedFiles<SigningCa>({
      name: this.name,
      files: [certFile, keyFile],
      loadedMessage: CERT_KEY_LOADED,
      watchFailedMessage: CERT_KEY_WATCH_FAILED,
      log,
      ...(o.reloadIntervalMs ? { reloadIntervalMs: o.reloadIntervalMs } : {}),
      read: async () => {
        const files = await readCaFiles(certFile, keyFile);
        return [files.certBytes, files.keyBytes];
      },
      parse: ([cert, key]) => parseSigningCa(certFile, cert!, keyFile, key!),
      refused: (e) => {
        if (e instanceof CaLoaderError) log.error('Unhandled Error', { err: `key failed with : ${e.loaderError}` });
        else log.error('the CA files changed but cannot be used; still signing with the previous CA', { error: (e as Error).message });
      },
      loaded: (next) => {
        this.#warn(next);
        log.info('loaded a new signing CA', {
          certFile, subject: next.certificate.commonName, serial: next.certificate.serialNumber,
          notAfter: next.certificate.notAfter.toISOString(),
        });
      },
    }, { contents: [certBytes, keyBytes], value });
    this.#warn(value);
  }

  #warn(ca: SigningCa): void {
    if (ca.warning) this.log.warn(ca.warning);
    const exposed = keyFileExposure(this.keyFile);
    if (exposed) this.log.warn(exposed);
  }

  current(): SigningCa { return this.#files.current(); }

  /** Starts watching the files; stop() ends it. */
  start(): void { this.#files.start(); }

  stop(): void { this.#files.stop(); }

  /** Re-reads the files and applies a changed, valid pair. Calls during a reload coalesce into one more. */
  reload(): Promise<void> { return this.#files.reload(); }
}
