// A client certificate and key that a kubeconfig names as files (both, no data), followed as
// client-go follows them (transport.loadTLSFiles sets ReloadTLSFiles; cert_rotation.go): the pair
// is looked at again before a request when the last look is over a second old (client-go's
// certificate cache re-reads the files for a new connection after a second), and every 5 minutes
// (CertCallbackRefreshDuration); a changed pair is handed to the clients, which close all their
// connections (connrotation's CloseAll: requests in flight fail, watches end and are opened again)
// and connect with it. Clients swap agents rather than one connection's pair: Node's https.Agent
// resumes TLS sessions it cached, and a resumed session carries the old certificate.
//
// A look stats the two files (following symlinks, so a Secret volume's `..data` swap is seen) and
// reads them only when that changed. A change that is no pair (half-written, mismatched) is logged
// with client-go's work-queue text and the current pair kept (upstream fails new handshakes then).
// One follower serves every client built from the same loaded kubeconfig.
import { readFileSync, statSync } from 'node:fs';
import { osErrorText } from '../go-os-error.js';
import type { Logger } from '../log.js';
import { clientPairError } from './kubeconfig-tls.js';

/** client-go's CertCallbackRefreshDuration. */
export const CLIENT_CERT_REFRESH_MS = 5 * 60_000;
/** client-go's certificateCacheEntry.isStale: a loaded pair is trusted for a second. */
export const CLIENT_CERT_STALE_MS = 1_000;

export interface ClientPair {
  readonly cert: Buffer;
  readonly key: Buffer;
}

export interface ClientCertFilesOptions {
  /** The periodic look; CLIENT_CERT_REFRESH_MS by default. */
  readonly refreshIntervalMs?: number;
  /** The clock of the look before a request (ms; monotonic by default). */
  readonly now?: () => number;
}

type Listener = (pair: ClientPair) => void;

/** What a look compares: each file's identity, size and times, through symlinks. */
function signature(files: readonly string[]): string {
  return files.map((f) => {
    try {
      const s = statSync(f, { bigint: true });
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch (e) {
      return `!${(e as NodeJS.ErrnoException).code ?? ''}`;
    }
  }).join('|');
}

export class ClientCertFiles {
  #pair: ClientPair;
  #seen: string;
  #lastLook: number;
  readonly #listeners = new Map<Listener, Logger | undefined>();
  #timer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  /** `initial` is the pair the kubeconfig's loading read from the files (and checked). */
  constructor(readonly certFile: string, readonly keyFile: string, initial: ClientPair, private readonly o: ClientCertFilesOptions = {}) {
    this.#pair = initial;
    this.#now = o.now ?? (() => performance.now());
    this.#lastLook = this.#now();
    // Stat'd after the read: a change in between is read again at the first look, no harm.
    this.#seen = signature([certFile, keyFile]);
  }

  current(): ClientPair { return this.#pair; }

  /** The first listener starts the periodic look, the last one gone stops it. */
  subscribe(listener: Listener, logger?: Logger): () => void {
    this.#listeners.set(listener, logger);
    if (!this.#timer) {
      logger?.v(3).info('Starting client certificate rotation controller');
      this.#timer = setInterval(() => this.check(), this.o.refreshIntervalMs ?? CLIENT_CERT_REFRESH_MS);
      this.#timer.unref();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  /** The look before a request: only when the last one is over a second old. */
  checkIfStale(): void {
    if (this.#now() - this.#lastLook < CLIENT_CERT_STALE_MS) return;
    this.check();
  }

  /** Looks at the files now; true when a new pair was taken (and listeners told). */
  check(): boolean {
    this.#lastLook = this.#now();
    const seen = signature([this.certFile, this.keyFile]);
    if (seen === this.#seen) return false;
    // Remembered before parsing: a bad pair is said once, not at every look until it is fixed.
    this.#seen = seen;
    let next: ClientPair;
    try {
      next = { cert: read(this.certFile), key: read(this.keyFile) };
      if (next.cert.equals(this.#pair.cert) && next.key.equals(this.#pair.key)) return false;
      const problem = clientPairError(next.cert, next.key);
      if (problem) throw new Error(problem);
    } catch (e) {
      this.#logger()?.error('Unhandled Error', { err: `key failed with : ${(e as Error).message}` });
      return false;
    }
    this.#pair = next;
    this.#logger()?.v(1).info('certificate rotation detected, shutting down client connections to start using new credentials');
    for (const listener of this.#listeners.keys()) listener(next);
    return true;
  }

  #logger(): Logger | undefined {
    for (const l of this.#listeners.values()) if (l) return l;
    return undefined;
  }
}

/** os.ReadFile, its error in Go's words (tls.LoadX509KeyPair's). */
function read(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(osErrorText('open', file, e));
  }
}
