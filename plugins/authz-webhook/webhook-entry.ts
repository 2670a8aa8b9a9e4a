// One Webhook entry of the chain (WebhookEntry), deciding as upstream's WebhookAuthorizer.Authorize does:
//   1. the question as a SubjectAccessReviewSpec; its matchConditions, if any, must all be true
//      (one false: no opinion, webhook not asked; an error: the failurePolicy decides);
//   2. a cached answer for the same question, else the webhook (retried with backoff);
//      a failed call is logged (`Failed to make webhook authorizer request: <client-go's error>`),
//      decides by failurePolicy and is not cached;
//   3. allowed → allow, denied → deny, neither → no opinion, each with the webhook's reason;
//      both at once is a deny. Answers are cached for authorizedTTL / unauthorizedTTL, unless
//      caching of that kind is off or the caller-controlled attributes are too long to keep.
// An error (a failed call, a match condition that errs, both allowed and denied) is upstream's
// authorizer error: under failurePolicy NoOpinion the chain goes on and, if nobody allows, the
// request gets 500 with the error's text (thrown: core/authz/union.ts); under Deny (and for both
// answers at once) it is a deny that carries the error, which also ends in 500 with it, and an
// access review's status.evaluationError.
import type { Attributes, Decision } from '../../core/authz/attributes.js';
import { evaluateMatchConditions, type CompiledCondition } from '../../core/authz/match-conditions.js';
import { BOTH_ANSWERS } from '../../core/authz/review-status.js';
import { specFromAttributes, specToWire } from '../../core/authz/subject-access-review.js';
import type { WebhookAuthorizerSettings } from '../../core/authz/webhook-settings.js';
import type { Logger } from '../../core/log.js';
import type { DecisionCache } from './decision-cache.js';
import type { ReviewStatus, SubjectAccessReviewClient } from './subject-access-review-client.js';

/** upstream maxControlledAttrCacheSize: longer questions may be a DoS attempt and are not cached. */
const MAX_CACHED_ATTRIBUTE_BYTES = 10_000;

function shouldCache(a: Attributes): boolean {
  const size = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path]
    .reduce((n, s) => n + Buffer.byteLength(s), 0);
  return size < MAX_CACHED_ATTRIBUTE_BYTES;
}

export interface WebhookEntryParts {
  readonly name: string;
  readonly settings: WebhookAuthorizerSettings;
  readonly client: Pick<SubjectAccessReviewClient, 'review'>;
  readonly conditions: readonly CompiledCondition[];
  readonly cache: DecisionCache;
  readonly log: Logger;
}

export class WebhookEntry {
  readonly #p: WebhookEntryParts;

  constructor(parts: WebhookEntryParts) { this.#p = parts; }

  /** w.decisionOnError, "", err. */
  #onError(error: string): Decision {
    if (this.#p.settings.failurePolicy === 'NoOpinion') throw new Error(error);
    return { decision: 'deny', reason: '', error };
  }

  async authorize(attrs: Attributes): Promise<Decision | undefined> {
    const { name, settings, client, conditions, cache, log } = this.#p;
    const spec = specFromAttributes(attrs);
    if (conditions.length) {
      const m = evaluateMatchConditions(conditions, spec);
      if ('error' in m) {
        log.warn('authorization webhook match conditions failed', { authorizer: name, user: attrs.user.name, error: m.error });
        return this.#onError(m.error);
      }
      if (!m.matches) return undefined;
    }

    const key = JSON.stringify(specToWire(spec, 'v1'));
    let status: ReviewStatus | undefined = cache.get(key);
    if (status === undefined) {
      try {
        status = await client.review(spec, attrs.context);
      } catch (err) {
        // An error here indicates bad configuration or an outage, upstream says; its line has the error alone.
        const error = (err as Error).message;
        log.error(`Failed to make webhook authorizer request: ${error}`);
        return this.#onError(error);
      }
      if (shouldCache(attrs)) {
        if (status.allowed) {
          if (settings.cacheAuthorizedRequests) cache.set(key, status, settings.authorizedTTLMs);
        } else if (settings.cacheUnauthorizedRequests) {
          cache.set(key, status, settings.unauthorizedTTLMs);
        }
      }
    }
    if (status.evaluationError) log.v(2).info('authorization webhook evaluation error', { authorizer: name, error: status.evaluationError });
    if (status.denied && status.allowed) {
      return { decision: 'deny', reason: status.reason, error: BOTH_ANSWERS };
    }
    if (status.denied) return { decision: 'deny', reason: status.reason };
    if (status.allowed) return status.reason ? { decision: 'allow', reason: status.reason } : { decision: 'allow' };
    return status.reason ? { decision: 'noOpinion', reason: status.reason } : undefined;
  }
}
