// Who is calling. Filled by authenticators; stored into CSR spec.username/uid/groups/extra.
import type { PeerCertificate } from 'node:tls';

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const ANONYMOUS_USER = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const MASTERS_GROUP = 'system:masters';

/** What an authenticator sees of a request. */
export interface AuthenticationRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * Node's rawHeaders, `[name, value, name, value, ...]` as received: `headers` joins a repeated
   * header into one `a, b` string, which loses where one value ends (request-header groups need it).
   */
  readonly rawHeaders?: readonly string[];
  /**
   * The audiences the credential must be good for (a TokenReview's spec.audiences); absent means
   * the API server's own (--api-audiences).
   */
  readonly audiences?: readonly string[];
  /**
   * A TokenReview's spec.token: the token itself, as upstream's TokenReview hands it to the token
   * authenticators. The review's `Authorization: Bearer <token>` header cuts it at a space: a token
   * authenticator takes requestToken(req) (core/authn/bearer.ts), which prefers this.
   */
  readonly token?: string;
  /**
   * Told, by an audience-aware authenticator that accepts the credential, the audiences it is good
   * for (upstream's authenticator.Response.Audiences); a TokenReview reports them.
   */
  readonly granted?: (audiences: readonly string[]) => void;
  /**
   * The verified-or-not client certificate chain presented in the TLS handshake (empty object when
   * none). TLS asks clients for one only when some authenticator added its CA bundle through
   * hooks.clientAuthorities, as Go's server asks only with ClientCAs.
   */
  readonly peerCertificate: PeerCertificate | undefined;
  /** The raw DER chain, leaf first, as presented by the client. */
  readonly peerChain: readonly Buffer[];
  /**
   * An authenticator that recognised a credential of its kind but found it bad calls reject():
   * the request then fails with 401 instead of falling through to anonymous (fail closed).
   */
  reject(reason: string): void;
  /** True once any authenticator has called reject(). */
  readonly rejected: boolean;
  /**
   * A `Warning` header for the client, whatever the outcome (upstream's warning.AddWarning from
   * an authenticator); absent where no HTTP answer follows (a TokenReview).
   */
  readonly warn?: (text: string) => void;
  /**
   * An annotation for the request's audit event (upstream's audit.AddAuditAnnotation from an
   * authenticator), kept until the event exists; absent where nothing is audited (a TokenReview).
   */
  readonly annotate?: (key: string, value: string) => void;
}
