// Who is calling the controller manager's endpoint, as upstream's delegating authenticator
// decides it: a client certificate that the TLS layer verified against the client CA (user = CN,
// groups = O), else a bearer token the API server's TokenReview accepts, else anonymous. A
// credential that was presented but failed (a certificate that does not verify, a token the API
// server refuses or could not review) is a 401, never anonymous (upstream's union FailOnError).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { bearerToken } from '../../core/authn/bearer.js';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from '../../core/authn/user.js';
import type { Logger } from '../../core/log.js';
import { peerCertificates, peerVerification } from '../../core/server/peer.js';
import type { TokenReviewer } from '../../core/authn/token-review-client.js';

/** Upstream's authentication.kubernetes.io/credential-id, in plat's group. */
const CREDENTIAL_ID = 'authentication.platform/credential-id';

export interface DelegatedAuthenticatorOptions {
  /** True when the listener verifies client certificates against a client CA. */
  readonly clientCa: boolean;
  readonly tokens?: TokenReviewer;
  readonly logger: Logger;
}

export type Authentication = { readonly user: UserInfo } | { readonly refused: readonly string[] };

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function withAuthenticatedGroup(u: UserInfo): UserInfo {
  return u.groups.includes(AUTHENTICATED_GROUP) ? u : { ...u, groups: [...u.groups, AUTHENTICATED_GROUP] };
}

export class DelegatedAuthenticator {
  constructor(private readonly o: DelegatedAuthenticatorOptions) {}

  async authenticate(req: IncomingMessage | Http2ServerRequest): Promise<Authentication> {
    const refused: string[] = [];
    if (this.o.clientCa) {
      const tls = peerVerification(req);
      const { leaf } = peerCertificates(req);
      if (tls.presented && leaf) {
        if (!tls.authorized) refused.push(`x509: ${tls.error ?? 'certificate not verified'}`);
        else if (leaf.subject?.CN) {
          return {
            user: withAuthenticatedGroup({
              name: asList(leaf.subject.CN)[0]!, groups: asList(leaf.subject.O),
              extra: { [CREDENTIAL_ID]: [`X509SHA256=${createHash('sha256').update(leaf.raw).digest('hex')}`] },
            }),
          };
        }
      }
    }
    // Without --authentication-kubeconfig there is no token authenticator: a token is no credential.
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
    if (refused.length) return { refused };
    return { user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } };
  }
}
