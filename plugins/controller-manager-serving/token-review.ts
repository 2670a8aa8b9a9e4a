// Bearer tokens checked by the API server (upstream's delegating token authenticator): POST
// /apis/authentication.platform/v1/tokenreviews with the --authentication-kubeconfig credentials,
// answers cached for --authentication-token-webhook-cache-ttl (authenticated or not; failures
// are not cached), keyed by a digest of the token.
import type { UserInfo } from '../../core/authn/user.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { digest, ReviewCache } from '../../core/client/review-cache.js';
import { withRetry } from '../../core/client/review-retry.js';

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
    user: {
      name: u.username, groups: [...(u.groups ?? [])],
      ...(u.uid ? { uid: u.uid } : {}), ...(Object.keys(extra).length ? { extra } : {}),
    },
  };
}

export class TokenReviewer {
  readonly #client: RestClient;
  readonly #cache: ReviewCache<TokenReviewResult>;
  constructor(connection: ClientConnection, ttlMs: number, userAgent: string) {
    // Upstream raises the delegating client's limits (qps 200, burst 400): they bound every request.
    this.#client = new RestClient(connection, { qps: 200, burst: 400, userAgent });
    this.#cache = new ReviewCache(() => ttlMs);
  }

  close(): void { this.#client.close(); }

  review(token: string): Promise<TokenReviewResult> {
    return this.#cache.get(digest(token), () => withRetry(async (signal) => {
      const answer = await this.#client.request<{ status?: TokenReviewStatus }>('POST', PATH, {
        body: { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } }, signal,
      });
      return reviewResult(answer?.status);
    }));
  }
}
