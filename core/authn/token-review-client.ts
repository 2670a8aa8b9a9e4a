// Bearer tokens checked by the API server for a component that delegates authentication (the
// controller manager's endpoint, the node agent's secure port): POST
// /apis/authentication.platform/v1/tokenreviews with upstream's webhook retries. Answers are cached
// for the TTL as upstream's cached token authenticator keeps them: "authenticated" and "not
// authenticated" alike, but not a review that failed or that answered with an error; the key is a
// digest of the token, so the token itself is never kept.
import type { RestClient } from '../client/rest-client.js';
import { digest, ReviewCache } from '../client/review-cache.js';
import { withRetry } from '../client/review-retry.js';
import type { UserInfo } from './user.js';

export type TokenReviewResult = { readonly authenticated: true; readonly user: UserInfo } | { readonly authenticated: false; readonly error?: string };

const PATH = '/apis/authentication.platform/v1/tokenreviews';

interface TokenReviewStatus {
  authenticated?: boolean;
  error?: string;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[] | null> };
}

export function reviewResult(status: TokenReviewStatus | undefined): TokenReviewResult {
  if (status?.authenticated !== true) return status?.error ? { authenticated: false, error: status.error } : { authenticated: false };
  const u = status.user ?? {};
  // Fail closed: an authenticated answer without a user name is no identity.
  if (!u.username) return { authenticated: false, error: 'the token review named no user' };
  const extra = Object.fromEntries(Object.entries(u.extra ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1])));
  return {
    authenticated: true,
    user: { name: u.username, groups: [...(u.groups ?? [])], ...(u.uid ? { uid: u.uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) },
  };
}

export class TokenReviewer {
  readonly #cache: ReviewCache<TokenReviewResult>;

  /** `client` is asked for at each review (the node agent's changes when its certificate rotates). */
  constructor(private readonly client: () => RestClient | undefined, ttlMs: number, now: () => number = Date.now) {
    this.#cache = new ReviewCache((r) => (!r.authenticated && r.error ? 0 : ttlMs), now);
  }

  review(token: string): Promise<TokenReviewResult> {
    return this.#cache.get(digest(token), () => withRetry(async (signal) => {
      const api = this.client();
      if (!api) throw new Error('no API client to review the token with yet');
      const answer = await api.request<{ status?: TokenReviewStatus }>('POST', PATH, {
        body: { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } }, signal,
      });
      return reviewResult(answer?.status);
    }));
  }
}
