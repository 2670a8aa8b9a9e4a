// Upstream wraps the union of its token authenticators (token file, bootstrap tokens,
// service-account tokens, OIDC/JWT, the token webhook) in the bearertoken authenticator whenever
// there is at least one: a request carrying a bearer token that none of them accepted, and none
// found fault with, fails with `invalid bearer token`. So anonymous (NewFailOnError around the
// union) never takes such a request over: a token no authenticator recognises (another issuer's
// JWT, an expired credential, a typo) is a 401, the answer that makes client-go's credential
// plugins fetch a new one, not quietly system:anonymous. Each token authenticator calls
// tokenAuthenticationEnabled in configure when it is on; the check is tapped once per host.
import type { Host } from '../host.js';
import { requestToken, EXTRA_SPACE_WARNING, hasExtraSpaceBeforeToken, INVALID_BEARER_TOKEN } from './bearer.js';

/** After every authenticator that may accept a token, before anonymous (stage 1000). */
export const BEARER_TOKEN_STAGE = 999;
const TAP_NAME = 'BearerTokenAuthenticator';

const enabled = new WeakSet<Host>();

export function tokenAuthenticationEnabled(host: Host): void {
  if (enabled.has(host)) return;
  enabled.add(host);
  host.hooks.authenticate.tap({ name: TAP_NAME, stage: BEARER_TOKEN_STAGE }, (req) => {
    if (!req.rejected && requestToken(req) !== undefined) req.reject(INVALID_BEARER_TOKEN);
    if (hasExtraSpaceBeforeToken(req.headers)) req.warn?.(EXTRA_SPACE_WARNING);
    return undefined;
  });
}
