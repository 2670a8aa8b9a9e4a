// One SubjectAccessReview round trip: POST {apiVersion: authorization.k8s.io/<version>, kind:
// SubjectAccessReview, spec} to the webhook and read status.allowed / denied / reason. The
// apiVersion on the wire is upstream's own (not renamed), so that existing authorization webhooks
// understand plat without change. Transport, retries and the timeout are core/client's.
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import { WebhookClient, type Backoff } from '../../core/client/webhook-client.js';
import { specToWire, type SubjectAccessReviewSpec } from '../../core/authz/subject-access-review.js';
import type { SubjectAccessReviewVersion } from '../../core/authz/webhook-settings.js';

export const SUBJECT_ACCESS_REVIEW_GROUP = 'authorization.k8s.io';

export interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

export class SubjectAccessReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubjectAccessReviewError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a SubjectAccessReview answer (v1 or v1beta1: the status is the same in both). */
export function parseReviewStatus(body: unknown): ReviewStatus {
  const bad = (why: string) => new SubjectAccessReviewError(`malformed SubjectAccessReview response: ${why}`);
  if (!isObj(body)) throw bad('not a JSON object');
  if (body['kind'] !== 'SubjectAccessReview') throw bad(`kind is ${JSON.stringify(body['kind'] ?? null)}, expected "SubjectAccessReview"`);
  const versions = [`${SUBJECT_ACCESS_REVIEW_GROUP}/v1`, `${SUBJECT_ACCESS_REVIEW_GROUP}/v1beta1`];
  if (!versions.includes(body['apiVersion'] as string)) {
    throw bad(`apiVersion is ${JSON.stringify(body['apiVersion'] ?? null)}, expected ${versions.map((v) => `"${v}"`).join(' or ')}`);
  }
  const status = body['status'] ?? {};
  if (!isObj(status)) throw bad('status is not an object');
  const flag = (k: string): boolean => {
    const v = status[k];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw bad(`status.${k} is not a boolean`);
    return v;
  };
  const text = (k: string): string => {
    const v = status[k];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw bad(`status.${k} is not a string`);
    return v;
  };
  return { allowed: flag('allowed'), denied: flag('denied'), reason: text('reason'), evaluationError: text('evaluationError') };
}

export interface SubjectAccessReviewClientOptions {
  readonly connection: WebhookConnection;
  readonly version: SubjectAccessReviewVersion;
  readonly timeoutMs: number;
  readonly backoff?: Backoff;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export class SubjectAccessReviewClient {
  readonly apiVersion: string;
  readonly #version: SubjectAccessReviewVersion;
  readonly #client: WebhookClient;

  constructor(o: SubjectAccessReviewClientOptions) {
    this.#version = o.version;
    this.apiVersion = `${SUBJECT_ACCESS_REVIEW_GROUP}/${o.version}`;
    this.#client = new WebhookClient({
      connection: o.connection, kind: 'SubjectAccessReview', timeoutMs: o.timeoutMs,
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.sleep ? { sleep: o.sleep } : {}),
    });
  }

  close(): void { this.#client.close(); }

  /** Asks the webhook; rejects with an Error whose message names the failure, never a body. */
  async review(spec: SubjectAccessReviewSpec): Promise<ReviewStatus> {
    const body = JSON.stringify({ apiVersion: this.apiVersion, kind: 'SubjectAccessReview', spec: specToWire(spec, this.#version) });
    return parseReviewStatus(await this.#client.post(body));
  }
}
