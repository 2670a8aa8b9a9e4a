// --authentication-config re-read while the API server runs, as 1.32's BuiltInAuthenticationOptions
// .ApplyTo and authenticationConfigUpdater: the file is watched (core/tls's WatchedFiles: the file,
// its directory, a re-read every minute); new bytes are decoded and validated (with the service
// account issuers refused as at start-up), a changed `anonymous` section is refused (it is read at
// start-up only), then a new set of JWT authenticators is built and swapped in once every issuer's
// keys are loaded. The serving set is stopped a minute later, so requests already holding it finish.
// Bytes that do not decode or validate are not tried again until they change; a set that does not
// become ready in time (a minute) is, at the next event or re-read. Each outcome is logged with
// upstream's words and counted in upstream's metrics.
import { isDeepStrictEqual } from 'node:util';
import { aggregate } from '../../core/aggregate.js';
import { aggregateFieldErrors, fieldError, type FieldError } from '../../core/api/field-errors.js';
import { parseAuthenticationConfiguration, type AnonymousAuthConfig, type AuthenticationConfiguration } from '../../core/authn/authentication-config/index.js';
import type { Logger } from '../../core/log.js';
import { thrownMessage } from '../../core/thrown-message.js';
import { WatchedFiles } from '../../core/tls/watched-files.js';
import type { JwtSet } from './jwt-set.js';

/** UpdateAuthenticationConfigTimeout. */
export const UPDATE_TIMEOUT_MS = 60_000;
/** updateAuthenticationConfig's poll of the new authenticators' health. */
export const HEALTH_POLL_MS = 10_000;
/** How long a replaced set keeps working for the requests that hold it. */
export const RETIRE_AFTER_MS = 60_000;

export interface ReloadTimings {
  /** The periodic re-read (a minute). */
  readonly reloadIntervalMs?: number;
  readonly healthPollMs?: number;
  readonly updateTimeoutMs?: number;
  readonly retireAfterMs?: number;
}

export interface AuthenticationConfigReloadOptions extends ReloadTimings {
  readonly file: string;
  /** The bytes start-up read, and the set made of them. */
  readonly initial: { readonly bytes: Buffer; readonly set: JwtSet; readonly anonymous: AnonymousAuthConfig | undefined };
  /** Start-up's checks of a decoded file (validation, plat's refusals). */
  readonly validate: (config: AuthenticationConfiguration) => FieldError[];
  /** A new, not yet started, set of authenticators for a valid configuration. */
  readonly build: (config: AuthenticationConfiguration) => JwtSet;
  readonly log: Logger;
  /** A reload's outcome, for the metrics. */
  readonly record?: (status: 'success' | 'failure') => void;
}

/** A reload refused: upstream's log message, its error, and whether the same bytes always get it. */
class Refusal extends Error {
  constructor(readonly logMessage: string, detail: string, readonly settled: boolean) {
    super(detail);
  }
}

export class AuthenticationConfigReloader {
  readonly #o: AuthenticationConfigReloadOptions;
  readonly #files: WatchedFiles<JwtSet>;
  #serving: JwtSet;
  #stopped = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #retiring = new Set<JwtSet>();
  readonly #wakers = new Set<() => void>();

  constructor(o: AuthenticationConfigReloadOptions) {
    this.#o = o;
    this.#serving = o.initial.set;
    this.#files = new WatchedFiles<JwtSet>({
      name: `authentication-config::${o.file}`,
      files: [o.file],
      parse: ([bytes]) => this.#load(bytes ?? Buffer.alloc(0)),
      loadedMessage: 'Loaded new authentication config content',
      log: o.log,
      ...(o.reloadIntervalMs !== undefined ? { reloadIntervalMs: o.reloadIntervalMs } : {}),
      settled: (e) => e instanceof Refusal && e.settled,
      refused: (e) => this.#refused(e),
      loaded: (set) => this.#swap(set),
    }, { contents: [o.initial.bytes], value: o.initial.set });
  }

  /** The set serving now. */
  current(): JwtSet { return this.#serving; }

  start(): void { this.#files.start(); }

  /** Re-reads the file now (tests; events and the timer do it otherwise). */
  reload(): Promise<void> { return this.#files.reload(); }

  stop(): void {
    this.#stopped = true;
    this.#files.stop();
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const wake of this.#wakers) wake();
    for (const s of this.#retiring) s.stop();
    this.#retiring.clear();
    this.#serving.stop();
  }

  async #load(bytes: Buffer): Promise<JwtSet> {
    let config: AuthenticationConfiguration;
    try {
      config = parseAuthenticationConfiguration(bytes.toString('utf8'));
    } catch (e) {
      throw new Refusal('failed to load authentication config', thrownMessage(e), true);
    }
    const errs = this.#o.validate(config);
    if (!isDeepStrictEqual(config.anonymous, this.#o.initial.anonymous)) errs.push(fieldError.forbidden('anonymous', 'changed from initial configuration file'));
    if (errs.length) throw new Refusal('failed to validate authentication config', aggregateFieldErrors(errs), true);
    const set = this.#o.build(config);
    try {
      await this.#whenHealthy(set);
    } catch (e) {
      set.stop();
      throw e;
    }
    if (this.#stopped) {
      set.stop();
      throw new Refusal('', '', false);
    }
    return set;
  }

  /** Upstream polls the new set's health at once and then every 10 s, for at most a minute. */
  async #whenHealthy(set: JwtSet): Promise<void> {
    const deadline = Date.now() + (this.#o.updateTimeoutMs ?? UPDATE_TIMEOUT_MS);
    await set.start();
    for (;;) {
      const unhealthy = set.unhealthy();
      if (!unhealthy) return;
      const left = deadline - Date.now();
      if (left <= 0 || this.#stopped) {
        throw new Refusal('failed to update authentication config', aggregate([...unhealthy, 'context deadline exceeded']), false);
      }
      await this.#sleep(Math.min(this.#o.healthPollMs ?? HEALTH_POLL_MS, left));
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => { clearTimeout(t); this.#timers.delete(t); this.#wakers.delete(wake); resolve(); };
      const t = setTimeout(wake, ms);
      t.unref();
      this.#timers.add(t);
      this.#wakers.add(wake);
    });
  }

  #refused(e: unknown): void {
    if (this.#stopped) return;
    if (e instanceof Refusal) this.#o.log.error(e.logMessage, { err: e.message });
    // A read error may go away (a file being replaced): the bytes are tried again.
    else this.#o.log.error('failed to read authentication config file', { err: thrownMessage(e) });
    this.#o.record?.('failure');
  }

  #swap(set: JwtSet): void {
    const old = this.#serving;
    this.#serving = set;
    this.#o.log.info('reloaded authentication config');
    this.#o.record?.('success');
    this.#retiring.add(old);
    const t = setTimeout(() => {
      this.#timers.delete(t);
      this.#retiring.delete(old);
      old.stop();
    }, this.#o.retireAfterMs ?? RETIRE_AFTER_MS);
    t.unref();
    this.#timers.add(t);
  }
}
