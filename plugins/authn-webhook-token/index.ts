export {
  WebhookTokenAuthenticator, createWebhookTokenAuthenticator, WEBHOOK_CONFIG_FILE_FLAG, WEBHOOK_CACHE_TTL_FLAG,
  WEBHOOK_VERSION_FLAG, WEBHOOK_TOKEN_STAGE,
} from './webhook-token-authenticator.js';
export type { WebhookTokenAuthenticatorDeps } from './webhook-token-authenticator.js';
export { loadKubeconfig, isLoopbackHost, KubeconfigError } from '../../core/client/kubeconfig.js';
export type { WebhookConnection } from '../../core/client/kubeconfig.js';
export {
  TokenReviewClient, TokenReviewError, parseReview, DEFAULT_BACKOFF, DEFAULT_TIMEOUT_MS, TOKEN_REVIEW_GROUP, WEBHOOK_VERSIONS,
} from './token-review-client.js';
export type { Backoff, ReviewResult, WebhookVersion } from './token-review-client.js';
export { ReviewCache, cacheKey, DEFAULT_MAX_ENTRIES } from './cache.js';
