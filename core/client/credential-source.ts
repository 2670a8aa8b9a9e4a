// Credentials that are not known when the kubeconfig is read: an exec plugin's (exec-credential.ts),
// a token file's (token-file.ts), or fixed but not a bearer token (basic auth). Every client that
// builds requests from a kubeconfig (the REST client, the webhook client, the `plat` commands' one
// requests) asks the source before each request and tells it of a 401, as client-go's round
// trippers do; a client certificate among them is presented at the TLS handshake.

export interface Credential {
  /** The Authorization header's value (`Bearer ...`, `Basic ...`), if any. */
  readonly authorization?: string;
  /** A client certificate pair for the handshake (an exec plugin's), PEM. */
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface CredentialSource {
  /** The credential for the next request; a failure is the request's (`getting credentials: ...`). */
  get(): Promise<Credential>;
  /** The server answered 401 to a request sent with `used`: the next one should get a fresh credential. */
  unauthorized(used: Credential): void | Promise<void>;
}

/** A credential that never changes (basic auth). */
export function fixedCredential(c: Credential): CredentialSource {
  return { get: () => Promise.resolve(c), unauthorized: () => {} };
}

/** Whether `next` presents another client certificate than the one a transport was built with. */
export function certificateChanged(current: { cert?: Buffer | undefined; key?: Buffer | undefined }, next: Credential): boolean {
  const same = (a: Buffer | undefined, b: Buffer | undefined) => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
  return !same(current.cert, next.cert) || !same(current.key, next.key);
}
