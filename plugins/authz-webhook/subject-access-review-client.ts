// One SubjectAccessReview round trip: POST {apiVersion: authorization.k8s.io/<version>, kind:
// SubjectAccessReview, spec} to the webhook and read status.allowed / denied / reason. The
// apiVersion on the wire is upstream's own (not renamed), so that existing authorization webhooks
// understand plat without change. Transport, retries and the timeout are core/client's.
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import { WebhookClient, type Backoff } from '../../core/client/webhook-client.js';
import { specToWire, type SubjectAccessReviewSpec } from '../../core/authz/subject-access-review.js';
import type { SubjectAccessReviewVersion } from '../../core/authz/webhook-settings.js';
import { parseReviewStatus, SubjectAccessReviewError, type ReviewStatus } from '../../core/authz/review-status.js';
import { statusAnswerConversion } from '../../core/api/answer-kind.js';
import type { Logger } from '../../core/log.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SUBJECT_ACCESS_REVIEW_GROUP = 'authorization.k8s.io';

export { SubjectAccessReviewError, type ReviewStatus } from '../../core/authz/review-status.js';

export interface SubjectAccessReviewClientOptions {
  readonly connection: WebhookConnection;
  readonly version: SubjectAccessReviewVersion;
  readonly timeoutMs: number;
  readonly backoff?: Backoff;
  /** The backoff's waits between attempts, told the caller's context (WebhookClientOptions.sleep); injectable so tests need not sleep. */
  readonly sleep?: (ms: number, context?: AbortSignal) => Promise<void>;
  readonly logger?: Logger;
}

export class SubjectAccessReviewClient {
  readonly apiVersion: string;
  readonly #version: SubjectAccessReviewVersion;
  readonly #client: WebhookClient;

  constructor(o: SubjectAccessReviewClientOptions) {
    this.#version = o.version;
    this.apiVersion = `${SUBJECT_ACCESS_REVIEW_GROUP}/${o.version}`;
    this.#client = new WebhookClient({
      connection: o.connection, timeoutMs: o.timeoutMs, clientTimeout: true,
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.sleep ? { sleep: o.sleep } : {}),
      ...(o.logger ? { logger: o.logger } : {}),
    });
  }

  close(): void { this.#client.close(); }

  /** Asks the webhook; rejects with an Error whose message names the failure, never a body. */
  async review(spec: SubjectAccessReviewSpec, context?: AbortSignal): Promise<ReviewStatus> {
    const body = JSON.stringify({ apiVersion: this.apiVersion, kind: 'SubjectAccessReview', spec: specToWire(spec, this.#version) });
    // Decoded into the version asked, as upstream's client does: an answer of the other version
    // has no conversion into it and is an error.
    const answer = await this.#client.post(body, context);
    const status = isObject(answer) ? statusAnswerConversion(answer, { group: SUBJECT_ACCESS_REVIEW_GROUP, version: this.#version, kind: 'SubjectAccessReview' }) : undefined;
    if (status) throw new SubjectAccessReviewError(status);
    return parseReviewStatus(answer, this.apiVersion);
  }
}
