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
import { answerKindMismatch } from '../api/answer-kind.js';
import { goClientErrorText } from '../client/go-url-error.js';
import type { Logger } from '../log.js';

export type TokenReviewResult = { readonly authenticated: true; readonly user: UserInfo } | { readonly authenticated: false; readonly error?: string };

const PATH = '/apis/authentication.platform/v1/tokenreviews';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * The answer read as Go's decoder reads it into a TokenReview: a field of the wrong type (a
 * number for the user name, a string for the groups) is an error, so the request is refused
 * (401) and nothing is cached, rather than an identity pieced together from what JavaScript
 * makes of it.
 */
export function reviewResult(body: unknown): TokenReviewResult {
  const bad = (why: string) => new Error(`malformed TokenReview response: ${why}`);
  if (!isObj(body) || answerKindMismatch(body, { group: 'authentication.platform', version: 'v1', kind: 'TokenReview' })) {
    throw bad('not an authentication.platform/v1 TokenReview');
  }
  const status = body['status'] ?? {};
  if (!isObj(status)) throw bad('status is not an object');
  const { authenticated, error, user } = status;
  if (authenticated != null && typeof authenticated !== 'boolean') throw bad('status.authenticated is not a boolean');
  if (error != null && typeof error !== 'string') throw bad('status.error is not a string');
  if (authenticated !== true) return error ? { authenticated: false, error } : { authenticated: false };
  const u = user ?? {};
  if (!isObj(u)) throw bad('status.user is not an object');
  const { username, uid, groups, extra } = u;
  if (username != null && typeof username !== 'string') throw bad('status.user.username is not a string');
  if (uid != null && typeof uid !== 'string') throw bad('status.user.uid is not a string');
  if (groups != null && !isStrings(groups)) throw bad('status.user.groups is not a list of strings');
  if (extra != null && !(isObj(extra) && Object.values(extra).every((v) => v === null || isStrings(v)))) throw bad('status.user.extra is not a map of string lists');
  // Fail closed: an authenticated answer without a user name is no identity.
  if (!username) return { authenticated: false, error: 'the token review named no user' };
  const extras = Object.fromEntries(Object.entries((extra ?? {}) as Record<string, string[] | null>).filter((e): e is [string, string[]] => Array.isArray(e[1])));
  return {
    authenticated: true,
    user: { name: username, groups: [...(groups ?? [])], ...(uid ? { uid } : {}), ...(Object.keys(extras).length ? { extra: extras } : {}) },
  };
}

export class TokenReviewer {
  readonly #cache: ReviewCache<TokenReviewResult>;

  /**
   * `client` is asked for at each review (the node agent's changes when its certificate rotates);
   * `logger` gets upstream's webhook token authenticator line for a review that could not be made.
   */
  constructor(private readonly client: () => RestClient | undefined, ttlMs: number, now: () => number = () => performance.now(), private readonly logger?: Logger) {
    this.#cache = new ReviewCache((r) => (!r.authenticated && r.error ? 0 : ttlMs), now);
  }

  review(token: string): Promise<TokenReviewResult> {
    return this.#cache.get(digest(token), async () => {
      let answer: unknown;
      try {
        answer = await withRetry(async (signal) => {
          const api = this.client();
          if (!api) throw new Error('no API client to review the token with yet');
          return api.request<unknown>('POST', PATH, {
            body: { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } }, ...(signal ? { signal } : {}),
          });
        });
      } catch (e) {
        // webhook.go: "An error here indicates bad configuration or an outage."
        this.logger?.error(`Failed to make webhook authenticator request: ${goClientErrorText(e)}`);
        throw e;
      }
      return reviewResult(answer);
    });
  }
}
