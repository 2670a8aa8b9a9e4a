// One TokenReview round trip to the webhook, as upstream's webhook token authenticator makes it:
// POST {apiVersion: authentication.k8s.io/<version>, kind: TokenReview, spec: {token, audiences}}
// and read status.authenticated / status.user / status.error / status.audiences from the answer. Transport, retries (client-go's
// Retry-After ones inside upstream's backoff) and the timeout of each attempt are core/client/webhook-client.ts's.
//
// Error messages never carry the token or the response body (a webhook may echo the token).
import type { UserInfo } from '../../core/authn/user.js';
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import type { Logger } from '../../core/log.js';
import { WebhookClient, type Backoff } from '../../core/client/webhook-client.js';
import { answerKindMismatch, statusAnswerConversion } from '../../core/api/answer-kind.js';
import { parseGroupVersion } from '../../core/api/group-version.js';
import { goStructFieldError } from '../../core/api/patch/json-value.js';

export { DEFAULT_BACKOFF, DEFAULT_TIMEOUT_MS } from '../../core/client/webhook-client.js';
export type { Backoff } from '../../core/client/webhook-client.js';

/**
 * The group on the wire: upstream's, so that existing webhook servers work unchanged (as the
 * authorization and admission webhooks keep authorization.k8s.io and admission.k8s.io).
 */
export const TOKEN_REVIEW_GROUP = 'authentication.k8s.io';
export const WEBHOOK_VERSIONS = ['v1', 'v1beta1'] as const;
export type WebhookVersion = (typeof WEBHOOK_VERSIONS)[number];

/** `audiences`: the webhook's status.audiences, when it named any. */
export type ReviewResult = (
  | { readonly authenticated: true; readonly user: UserInfo }
  | { readonly authenticated: false; readonly error?: string }
) & { readonly audiences?: readonly string[] };

export interface TokenReviewClientOptions {
  readonly connection: WebhookConnection;
  readonly version: WebhookVersion;
  readonly timeoutMs?: number;
  readonly backoff?: Backoff;
  /** Waits between retries; injectable so tests need not sleep. */
  readonly sleep?: (ms: number, context?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly logger?: Logger;
}

export class TokenReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenReviewError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a TokenReview answer; throws TokenReviewError for anything not shaped like one. A field of
 * the wrong JSON type is said as Go's decoder says it (`json: cannot unmarshal string into Go
 * struct field TokenReviewStatus.status.authenticated of type bool`), as upstream's client
 * decoding into the typed TokenReview of `apiVersion` does; null is absent, as it is to Go.
 */
export function parseReview(body: unknown, apiVersion: string): ReviewResult {
  const bad = (why: string) => new TokenReviewError(`malformed TokenReview response: ${why}`);
  if (!isObj(body)) throw bad('not a JSON object');
  const statusAnswer = statusAnswerConversion(body, { ...parseGroupVersion(apiVersion)!, kind: 'TokenReview' });
  if (statusAnswer) throw new TokenReviewError(statusAnswer);
  const mismatch = answerKindMismatch(body, { ...parseGroupVersion(apiVersion)!, kind: 'TokenReview' });
  if (mismatch) throw bad(mismatch);
  const pkg = parseGroupVersion(apiVersion)!.version;
  const wrong = (owner: string, path: string, value: unknown, goType: string) =>
    new TokenReviewError(goStructFieldError(value, owner, path, goType));
  const strings = (owner: string, path: string, v: unknown, listType = '[]string'): void => {
    if (v === undefined || v === null) return;
    if (!Array.isArray(v)) throw wrong(owner, path, v, listType);
    const odd = v.find((e) => e !== null && typeof e !== 'string');
    if (odd !== undefined) throw wrong(owner, path, odd, 'string');
  };
  const status = body['status'];
  if (status === undefined || status === null) return { authenticated: false };
  if (!isObj(status)) throw wrong('TokenReview', 'status', status, `${pkg}.TokenReviewStatus`);
  const error = status['error'] ?? undefined;
  if (error !== undefined && typeof error !== 'string') throw wrong('TokenReviewStatus', 'status.error', error, 'string');
  const authenticated = status['authenticated'] ?? undefined;
  if (authenticated !== undefined && typeof authenticated !== 'boolean') throw wrong('TokenReviewStatus', 'status.authenticated', authenticated, 'bool');
  strings('TokenReviewStatus', 'status.audiences', status['audiences']);
  const u = status['user'] ?? undefined;
  if (u !== undefined && !isObj(u)) throw wrong('TokenReviewStatus', 'status.user', u, `${pkg}.UserInfo`);
  for (const k of ['username', 'uid']) {
    const v = u?.[k] ?? undefined;
    if (v !== undefined && typeof v !== 'string') throw wrong('UserInfo', `status.user.${k}`, v, 'string');
  }
  strings('UserInfo', 'status.user.groups', u?.['groups']);
  const extraIn = u?.['extra'] ?? undefined;
  if (extraIn !== undefined && !isObj(extraIn)) throw wrong('UserInfo', 'status.user.extra', extraIn, `map[string]${pkg}.ExtraValue`);
  // Map keys are no part of Go's field path.
  for (const v of Object.values(extraIn ?? {})) strings('UserInfo', 'status.user.extra', v, `${pkg}.ExtraValue`);
  const audiences = (status['audiences'] ?? []) as (string | null)[];
  const auds = audiences.length ? { audiences: audiences.map((a) => a ?? '') } : {};
  if (authenticated !== true) return { authenticated: false, ...(error ? { error } : {}), ...auds };

  const name = u?.['username'];
  // Upstream would accept an empty username; a user without a name is refused here (fail closed).
  if (typeof name !== 'string' || name === '') throw bad('status.user.username is missing');
  const uid = u?.['uid'] as string | undefined;
  const groups = ((u?.['groups'] ?? []) as (string | null)[]).map((g) => g ?? '');
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries((extraIn ?? {}) as Record<string, (string | null)[] | null>)) {
    if (v !== null) extra[k] = v.map((e) => e ?? '');
  }
  return {
    authenticated: true,
    user: {
      name,
      ...(uid ? { uid } : {}),
      groups: [...groups],
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
    ...auds,
  };
}

export class TokenReviewClient {
  readonly apiVersion: string;
  readonly #client: WebhookClient;

  constructor(o: TokenReviewClientOptions) {
    this.apiVersion = `${TOKEN_REVIEW_GROUP}/${o.version}`;
    this.#client = new WebhookClient({
      connection: o.connection,
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.sleep ? { sleep: o.sleep } : {}),
      ...(o.random ? { random: o.random } : {}),
      ...(o.logger ? { logger: o.logger } : {}),
    });
  }

  close(): void { this.#client.close(); }

  /**
   * Reviews `token` for `audiences` (spec.audiences; none: left out, as upstream sends them only
   * when the request has target audiences): resolves with the webhook's verdict, rejects with
   * TokenReviewError. `context` bounds every attempt and the backoff between them (WebhookClient.post).
   */
  async review(token: string, audiences: readonly string[] = [], context?: AbortSignal): Promise<ReviewResult> {
    let answer: unknown;
    const spec = { token, ...(audiences.length ? { audiences: [...audiences] } : {}) };
    try {
      answer = await this.#client.post(JSON.stringify({ apiVersion: this.apiVersion, kind: 'TokenReview', spec }), context);
    } catch (err) {
      throw new TokenReviewError((err as Error).message);
    }
    return parseReview(answer, this.apiVersion);
  }
}
