// Upstream wraps the union of its token authenticators (token file, bootstrap tokens,
// service-account tokens, OIDC/JWT, the token webhook) in the bearertoken authenticator whenever
// there is at least one: a request carrying a bearer token that none of them accepted fails with
// the token union's errors, or `invalid bearer token` when none of them returned one (an unknown
// static or bootstrap token, another issuer's JWT, a webhook that says no without a reason). So
// anonymous (NewFailOnError around the union) never takes such a request over: a token no
// authenticator recognises is a 401, the answer that makes client-go's credential plugins fetch a
// new one, not quietly system:anonymous. An error of another kind of credential (a client
// certificate that does not verify) does not stand in for the token's: the union says both. Each
// token authenticator calls tokenAuthenticationEnabled in configure when it is on; the check is
// tapped once per host.
import type { Host } from '../host.js';
import type { AuthenticationRequest } from './user.js';
import { requestToken, EXTRA_SPACE_WARNING, hasExtraSpaceBeforeToken, INVALID_BEARER_TOKEN } from './bearer.js';

/** After every authenticator that may accept a token, before anonymous (stage 1000). */
export const BEARER_TOKEN_STAGE = 999;
const TAP_NAME = 'BearerTokenAuthenticator';

const enabled = new WeakSet<Host>();
const tokenErrors = new WeakSet<AuthenticationRequest>();

/**
 * A token authenticator's error (upstream: it returns one, where a token it does not recognise is
 * no error at all): the request's reject, and the bearer token authenticator then passes it on
 * instead of saying `invalid bearer token`.
 */
export function rejectToken(req: AuthenticationRequest, reason: string): void {
  tokenErrors.add(req);
  req.reject(reason);
}

/**
 * An authenticator plugin threw: its error stands in for the token's too (which kind of credential
 * a third-party plugin reads is not known), so it is not followed by `invalid bearer token`.
 */
export function countAsTokenError(req: AuthenticationRequest): void {
  tokenErrors.add(req);
}

export function tokenAuthenticationEnabled(host: Host): void {
  if (enabled.has(host)) return;
  enabled.add(host);
  host.hooks.authenticate.tap({ name: TAP_NAME, stage: BEARER_TOKEN_STAGE }, (req) => {
    if (!tokenErrors.has(req) && requestToken(req) !== undefined) req.reject(INVALID_BEARER_TOKEN);
    if (hasExtraSpaceBeforeToken(req.headers)) req.warn?.(EXTRA_SPACE_WARNING);
    return undefined;
  });
}
