// Who is calling a component that delegates authentication to the API server (the controller
// manager's endpoint, the node agent's secure port), as upstream's DelegatingAuthenticatorConfig
// builds it, in its order: a front proxy's identity headers (request-header CA, allowed names),
// else a client certificate verified against the client CA (user = CN, groups = O), else a bearer
// token the API server's TokenReview accepts, each of them adding system:authenticated; anonymous
// (system:anonymous, system:unauthenticated) only when allowed and nothing was presented. A
// credential that was presented and failed is never anonymous: the request is refused (upstream's
// union with FailOnError), unless a later method accepted the request. Refusal reasons are for the
// log only, and never carry a token.
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { peerCertificates } from '../server/peer.js';
import { goClientErrorText } from '../client/go-url-error.js';
import { bearerToken } from './bearer.js';
import { authenticateFrontProxy, type RequestHeaderSettings } from './request-header.js';
import type { TokenReviewResult } from './token-review-client.js';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from './user.js';
import { authenticateCertificateChain, parseCaBundle, type Certificate } from './x509/index.js';
import type { Changing } from '../tls/changing.js';
import { aggregate } from '../aggregate.js';

export interface TokenAuthenticator {
  review(token: string): Promise<TokenReviewResult>;
}

export interface DelegatingAuthenticatorOptions {
  /**
   * The client CA bundle (PEM) client certificates are verified against; absent: certificates are
   * no credential. A changing one (a watched file) verifies from the next request on.
   */
  readonly clientCa?: string | Changing<string>;
  /** Request-header authentication; absent: identity headers are never read. Changing: as clientCa. */
  readonly requestHeader?: RequestHeaderSettings | Changing<RequestHeaderSettings>;
  readonly tokens?: TokenAuthenticator;
  readonly anonymous: boolean;
  /** Clock for certificate validity; tests inject one. */
  readonly now?: () => Date;
}

/**
 * A user, or why there is none: `error` is the union's error upstream's filter logs (`Unable to
 * authenticate the request`): every refused credential is one of its authenticators' errors (a
 * certificate that does not verify, `invalid bearer token` or the review's status.error, a review
 * that failed in client-go's words), aggregated in the union's order; none when no credential was
 * presented.
 */
export type Authentication = { readonly user: UserInfo } | { readonly error?: string };

function withAuthenticatedGroup(u: UserInfo): UserInfo {
  return u.groups.includes(AUTHENTICATED_GROUP) ? u : { ...u, groups: [...u.groups, AUTHENTICATED_GROUP] };
}

const current = <T extends object>(v: T | Changing<T> | undefined): T | undefined =>
  v !== undefined && typeof (v as Changing<T>).onChange === 'function' ? (v as Changing<T>).current() : v as T | undefined;

export class DelegatingAuthenticator {
  #clientCa: readonly Certificate[] | undefined;
  readonly #now: () => Date;

  constructor(private readonly o: DelegatingAuthenticatorOptions) {
    // DelegatingAuthenticatorConfig.New: with no method at all, only anonymous is left.
    if (!o.clientCa && !o.requestHeader && !o.tokens && !o.anonymous) throw new Error('no authentication method configured');
    const parse = (pem: string) => parseCaBundle(pem, 'unable to load client CA file');
    if (typeof o.clientCa === 'string') this.#clientCa = parse(o.clientCa);
    else if (o.clientCa) {
      this.#clientCa = parse(o.clientCa.current());
      o.clientCa.onChange((pem) => { this.#clientCa = parse(pem); });
    }
    this.#now = o.now ?? (() => new Date());
  }

  async authenticate(req: IncomingMessage | Http2ServerRequest): Promise<Authentication> {
    const errors: string[] = [];
    const requestHeader = current(this.o.requestHeader);
    const chain = requestHeader || this.#clientCa ? peerCertificates(req).chain : [];
    if (requestHeader && chain.length > 0) {
      const proxy = authenticateFrontProxy(chain, req, requestHeader, this.#now());
      if (proxy.result === 'user') return { user: withAuthenticatedGroup(proxy.user) };
      if (proxy.result === 'reject') errors.push(proxy.reason);
    }
    if (this.#clientCa && chain.length > 0) {
      const cert = authenticateCertificateChain(chain, this.#clientCa, this.#now(), true);
      if (cert.result === 'user') return { user: withAuthenticatedGroup(cert.user) };
      if (cert.result === 'reject') errors.push(cert.reason);
    }
    const token = this.o.tokens ? bearerToken(req.headers) : undefined;
    if (token !== undefined && this.o.tokens) {
      try {
        const r = await this.o.tokens.review(token);
        if (r.authenticated) return { user: withAuthenticatedGroup(r.user) };
        // bearertoken's default when the review gives no error of its own.
        errors.push(r.error ?? 'invalid bearer token');
      } catch (e) {
        errors.push(goClientErrorText(e));
      }
    }
    if (errors.length > 0) return { error: aggregate(errors) };
    return this.o.anonymous ? { user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } } : {};
  }
}
