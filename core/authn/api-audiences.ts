// The API server's own audiences (--api-audiences, by default the service-account issuers), and
// upstream's WrapAudienceAgnosticToken for the authenticators whose credentials name no audience
// (the token file, bootstrap tokens, OIDC/JWT). They live here, on the host, because every token
// authenticator needs them while only the service-account plugin owns the flag; it sets them in
// configure, and authenticators read them per request, so the order of configure taps is moot.
import type { Host } from '../host.js';
import type { AuthenticationRequest, UserInfo } from './user.js';

const byHost = new WeakMap<Host, readonly string[]>();

export function setApiAudiences(host: Host, audiences: readonly string[]): void {
  byHost.set(host, [...audiences]);
}

/** Empty when the server has none (no --service-account-issuer): no audience is then checked. */
export function apiAudiences(host: Host): readonly string[] {
  return byHost.get(host) ?? [];
}

/** authenticator.Audiences.Intersect (`a.Intersect(tar)`): the elements of `a` that `tar` has, in a's order. */
export const intersectAudiences = (a: readonly string[], tar: readonly string[]): string[] =>
  a.filter((v) => tar.includes(v));

/**
 * What the request's credential must be good for: a TokenReview's spec.audiences, else the API
 * audiences, as upstream puts them in the request context. Empty: the context has none, nothing
 * is checked.
 */
export function targetAudiences(host: Host, req: AuthenticationRequest): readonly string[] {
  return req.audiences?.length ? req.audiences : apiAudiences(host);
}

/**
 * WrapAudienceAgnosticToken: with target audiences, such a credential is good only for those that
 * are the API server's own; when there are none it is not authenticated, without an error (so a
 * token of a foreign audience ends in `invalid bearer token`). An accepted credential reports that
 * intersection through req.granted, as the wrapper sets resp.Audiences.
 */
export async function authenticateAudienceAgnostic(
  host: Host, req: AuthenticationRequest, authenticate: () => UserInfo | undefined | Promise<UserInfo | undefined>,
): Promise<UserInfo | undefined> {
  const target = targetAudiences(host, req);
  if (target.length === 0) return authenticate();
  const granted = intersectAudiences(target, apiAudiences(host));
  if (granted.length === 0) return undefined;
  const user = await authenticate();
  if (user) req.granted?.(granted);
  return user;
}
