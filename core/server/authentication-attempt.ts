// What the authenticators of one HTTP request see (AuthenticationRequest), and what they said
// against it. A class rather than an object literal: a literal with a getter and a symbol key is
// built property by property through the runtime on every request (~0.8 µs against ~0.06 µs).
import type Koa from 'koa';
import type { PeerCertificate } from 'node:tls';
import type { AuthenticationRequest } from '../authn/user.js';
import type { Logger } from '../log.js';
import { setWarnings } from './respond.js';

/** A tap that threw: its plugin's name and the error, recorded among the union's errors. */
export const FAILED = Symbol('authenticator failed');

export class AuthenticationAttempt implements AuthenticationRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: AuthenticationRequest['headers'];
  readonly rawHeaders: readonly string[];
  /**
   * The union's errors in its order: each reject() is an authenticator's error, in upstream's words
   * and never carrying the credential; a plugin that threw is named, upstream having no plugins.
   */
  readonly errorTexts: string[] = [];
  readonly #ctx: Koa.Context;
  readonly #log: Logger;

  constructor(ctx: Koa.Context, log: Logger, readonly peerCertificate: PeerCertificate | undefined, readonly peerChain: readonly Buffer[]) {
    this.method = ctx.method;
    this.path = ctx.path;
    this.headers = ctx.req.headers;
    this.rawHeaders = ctx.req.rawHeaders;
    this.#ctx = ctx;
    this.#log = log;
  }

  // Fields, not methods: an authenticator may hand them on unbound, as it could the literal's.
  readonly reject = (reason: string): void => { this.errorTexts.push(reason); };

  // On the answer at once, as upstream's recorder writes the header when the warning is added:
  // a 401 carries it too.
  readonly warn = (text: string): void => {
    const state = this.#ctx.state as { authenticationWarnings?: string[] };
    const warnings = state.authenticationWarnings ??= [];
    warnings.push(text);
    setWarnings(this.#ctx, warnings, this.#log);
  };

  readonly annotate = (key: string, value: string): void => {
    const state = this.#ctx.state as { audit?: { pendingAnnotations?: [string, string][] } };
    if (state.audit) (state.audit.pendingAnnotations ??= []).push([key, value]);
  };

  get rejected(): boolean { return this.errorTexts.length > 0; }

  [FAILED](name: string, err: unknown): void {
    this.errorTexts.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
