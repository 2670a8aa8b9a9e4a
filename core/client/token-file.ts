// A kubeconfig user's `tokenFile`, as client-go's bearer round tripper over a CachedFileTokenSource
// uses it: the file is read again once its last reading is 50 s old (a minute, less 10 s leeway), so
// a token that something rotates on disk (a projected service account token) is picked up without a
// restart. A reading that fails keeps the last token (client-go logs `Unable to rotate token`);
// before any reading succeeded the token the kubeconfig was loaded with is sent.
import { readFileSync } from 'node:fs';
import { osErrorText } from '../go-os-error.js';
import type { Credential, CredentialSource } from './credential-source.js';

const PERIOD_MS = 60_000;
const LEEWAY_MS = 10_000;

export class TokenFileSource implements CredentialSource {
  #token: { value: string; expiresAt: number } | undefined;

  /**
   * `fallback`: the kubeconfig's `token` when it has one too (client-go keeps it as the bearer and
   * still prefers the file), else the file as first read. Throws client-go's error when there is
   * neither (NewBearerAuthWithRefreshRoundTripper reads the file at once then).
   */
  constructor(readonly file: string, private readonly fallback: string, private readonly now: () => number = Date.now) {
    if (fallback === '') this.#token = this.#read();
  }

  get(): Promise<Credential> {
    return Promise.resolve({ authorization: `Bearer ${this.#current()}` });
  }

  unauthorized(): void {}

  #current(): string {
    const t = this.#token;
    if (t && t.expiresAt - LEEWAY_MS > this.now()) return t.value;
    try {
      this.#token = this.#read();
      return this.#token.value;
    } catch {
      return t?.value ?? this.fallback;
    }
  }

  /** fileTokenSource.Token: the file's text without surrounding whitespace, never empty. */
  #read(): { value: string; expiresAt: number } {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      throw new Error(`failed to read token file ${JSON.stringify(this.file)}: ${osErrorText('open', this.file, e)}`);
    }
    const value = text.trim();
    if (value === '') throw new Error(`read empty token from file ${JSON.stringify(this.file)}`);
    return { value, expiresAt: this.now() + PERIOD_MS };
  }
}
