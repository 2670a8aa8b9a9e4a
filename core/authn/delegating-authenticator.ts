// Who is calling a component that delegates authentication to the API server (the controller
// manager's endpoint, the node agent's secure port), as upstream's DelegatingAuthenticatorConfig
// builds it: a client certificate the TLS layer verified against the client CA (user = CN,
// groups = O), else a bearer token the API server's TokenReview accepts, each of them adding
// system:authenticated; anonymous (system:anonymous, system:unauthenticated) only when allowed and
// nothing was presented. A credential that was presented and failed is never anonymous: the request is
// refused (upstream's union with FailOnError). Refusal reasons are for the log only, and never
// carry a token.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { peerCertificates, peerVerification } from '../server/peer.js';
import { bearerToken } from './bearer.js';
import type { TokenReviewResult } from './token-review-client.js';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from './user.js';

/** Upstream's authentication.kubernetes.io/credential-id, in plat's group. */
export const CREDENTIAL_ID = 'authentication.platform/credential-id';

export interface TokenAuthenticator {
  review(token: string): Promise<TokenReviewResult>;
}

export interface DelegatingAuthenticatorOptions {
  /** True when the listener requests client certificates and verifies them against the client CA. */
  readonly clientCa: boolean;
  readonly tokens?: TokenAuthenticator;
  readonly anonymous: boolean;
}

/** A user, or why there is none: `refused` lists failed credentials, an empty list means none was presented. */
export type Authentication = { readonly user: UserInfo } | { readonly refused: readonly string[] };

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function withAuthenticatedGroup(u: UserInfo): UserInfo {
  return u.groups.includes(AUTHENTICATED_GROUP) ? u : { ...u, groups: [...u.groups, AUTHENTICATED_GROUP] };
}

export class DelegatingAuthenticator {
  constructor(private readonly o: DelegatingAuthenticatorOptions) {
    // DelegatingAuthenticatorConfig.New: with neither certificates nor tokens, only anonymous is left.
    if (!o.clientCa && !o.tokens && !o.anonymous) throw new Error('no authentication method configured');
  }

  async authenticate(req: IncomingMessage | Http2ServerRequest): Promise<Authentication> {
    const refused: string[] = [];
    if (this.o.clientCa) {
      const tls = peerVerification(req);
      const { leaf } = peerCertificates(req);
      if (tls.presented && leaf) {
        if (!tls.authorized) refused.push(`x509: ${tls.error ?? 'certificate not verified'}`);
        else if (asList(leaf.subject?.CN)[0]) {
          return {
            user: withAuthenticatedGroup({
              name: asList(leaf.subject.CN)[0]!, groups: asList(leaf.subject.O),
              extra: { [CREDENTIAL_ID]: [`X509SHA256=${createHash('sha256').update(leaf.raw).digest('hex')}`] },
            }),
          };
        }
      }
    }
    const token = this.o.tokens ? bearerToken(req.headers) : undefined;
    if (token !== undefined && this.o.tokens) {
      try {
        const r = await this.o.tokens.review(token);
        if (r.authenticated) return { user: withAuthenticatedGroup(r.user) };
        refused.push(`token: ${r.error ?? 'invalid bearer token'}`);
      } catch (e) {
        refused.push(`token review failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (refused.length === 0 && this.o.anonymous) return { user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } };
    return { refused };
  }
}
