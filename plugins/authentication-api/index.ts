// AuthenticationApiPlugin: TokenReview and SelfSubjectReview, answered through the same
// authenticate hook that authenticates API requests. Both are served under authentication.k8s.io
// too (wire aliases, JSON or protobuf bodies: protobuf.ts), where client-go's typed clients post
// them: a delegating component's TokenReviews, `kubectl auth whoami`'s SelfSubjectReview.
import { aggregate } from '../../core/aggregate.js';
import { errors } from '../../core/api/errors.js';
import { intersectAudiences, targetAudiences } from '../../core/authn/api-audiences.js';
import { requestToken, INVALID_BEARER_TOKEN } from '../../core/authn/bearer.js';
import type { ApiObject } from '../../core/api/meta.js';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type AuthenticationRequest, type UserInfo } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { decodeSelfSubjectReview, decodeTokenReview } from './protobuf.js';
import { selfSubjectReviewSchema, tokenReviewSchema } from './schemas.js';

const PLUGIN_NAME = 'AuthenticationApiPlugin';
const GROUP = 'authentication.platform';
const UPSTREAM_GROUP = 'authentication.k8s.io';

/** Reviews have no stored state and no field rules beyond their schema. */
const reviewStrategy: Strategy = { validate: () => [], validateUpdate: () => [] };

function userInfo(u: UserInfo): Record<string, unknown> {
  return {
    username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups],
    ...(u.extra && Object.keys(u.extra).length ? { extra: Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]])) } : {}),
  };
}

function answer(obj: ApiObject, status: Record<string, unknown>): ApiObject {
  return { ...obj, metadata: { ...obj.metadata, creationTimestamp: null }, status };
}

/**
 * status.error as upstream's union of authenticators says it. The apiserver's loopback token
 * authenticator (AuthorizeClientBearerToken) stands first in that union and says `invalid bearer
 * token` for every other token; the errors the token authenticators returned follow it, all in one
 * utilerrors aggregate. `invalid bearer token` among the reasons is the bearer token
 * authenticator's default (core/authn/token-authentication.ts), not an error of theirs.
 */
function reviewError(reasons: readonly string[], token: boolean): string | undefined {
  const errors = reasons.filter((r) => r !== INVALID_BEARER_TOKEN);
  if (errors.length) return aggregate([INVALID_BEARER_TOKEN, ...errors]);
  return token || reasons.length ? INVALID_BEARER_TOKEN : undefined;
}

/** Runs the token authenticators (not anonymous) on `token`, as a request carrying it would. */
async function reviewToken(host: Host, token: string, audiences: readonly string[] | undefined): Promise<{ user?: UserInfo; audiences?: readonly string[]; error?: string }> {
  const reasons: string[] = [];
  let granted: readonly string[] | undefined;
  const req: AuthenticationRequest = {
    // The header too, for authenticator plugins that read it; plat's own take `token` (requestToken).
    method: 'POST', path: '/', headers: { authorization: `Bearer ${token}` }, token, peerCertificate: undefined, peerChain: [],
    ...(audiences?.length ? { audiences } : {}),
    granted: (a) => { granted = a; },
    reject: (reason) => { reasons.push(reason); },
    get rejected() { return reasons.length > 0; },
  };
  const user = await host.hooks.authenticate.promise(req);
  if (!user || user.name === ANONYMOUS_USER || user.groups.includes(UNAUTHENTICATED_GROUP)) {
    const error = reviewError(reasons, requestToken(req) !== undefined);
    return error === undefined ? {} : { error };
  }
  // tokenreview's REST: a user whose authenticator was good for none of the audiences asked for (an
  // authenticator that reported none, as one unaware of audiences) is a server error, not an answer.
  const auds = targetAudiences(host, req);
  if (auds.length && intersectAudiences(auds, granted ?? []).length === 0) {
    host.logger.child(PLUGIN_NAME).error('error validating audience', { want: auds, got: granted ?? [] });
    throw errors.internal(new Error('error validating audiences'));
  }
  return {
    user: user.groups.includes(AUTHENTICATED_GROUP) ? user : { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] },
    ...(granted?.length ? { audiences: granted } : {}),
  };
}

export const AuthenticationApiPlugin: Plugin = {
  name: PLUGIN_NAME,
  calls: ['authenticate'],
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      const tokenReviews: ResourceDefinition = {
        group: GROUP, version: 'v1', kind: 'TokenReview', listKind: 'TokenReviewList', plural: 'tokenreviews', singular: 'tokenreview',
        scope: 'Cluster', schema: tokenReviewSchema, verbs: ['create'], strategy: reviewStrategy,
        wireGroup: UPSTREAM_GROUP, decodeProtobuf: decodeTokenReview,
        description: 'TokenReview attempts to authenticate a token to a known user.',
        validateReview(_caller, obj) {
          if (!(obj['spec'] as { token?: string } | undefined)?.token) throw errors.badRequest('token is required for TokenReview in authentication');
        },
        async review(_caller, obj) {
          const spec = (obj['spec'] ?? {}) as { token?: string; audiences?: string[] };
          const result = await reviewToken(host, spec.token ?? '', spec.audiences);
          return answer(obj, {
            authenticated: result.user !== undefined,
            ...(result.user ? { user: userInfo(result.user) } : {}),
            // resp.Audiences: what the accepting authenticator found the token good for.
            ...(result.audiences ? { audiences: [...result.audiences] } : {}),
            ...(result.error ? { error: result.error } : {}),
          });
        },
      };
      const selfSubjectReviews: ResourceDefinition = {
        group: GROUP, version: 'v1', kind: 'SelfSubjectReview', listKind: 'SelfSubjectReviewList', plural: 'selfsubjectreviews',
        singular: 'selfsubjectreview', scope: 'Cluster', schema: selfSubjectReviewSchema, verbs: ['create'], strategy: reviewStrategy,
        wireGroup: UPSTREAM_GROUP, decodeProtobuf: decodeSelfSubjectReview,
        description: 'SelfSubjectReview contains the user information that the server has about the user making this request.',
        async review(caller, obj) { return answer(obj, { userInfo: userInfo(caller.user) }); },
      };
      registry.register(tokenReviews);
      registry.register(selfSubjectReviews);
    });
  },
};
