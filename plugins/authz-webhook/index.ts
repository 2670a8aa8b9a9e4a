export {
  WebhookAuthorizer, createWebhookAuthorizer, WEBHOOK_CONFIG_FILE_FLAG, WEBHOOK_VERSION_FLAG, WEBHOOK_AUTHORIZED_TTL_FLAG,
  WEBHOOK_UNAUTHORIZED_TTL_FLAG, DEFAULT_WEBHOOK_NAME,
} from './webhook-authorizer.js';
export type { WebhookAuthorizerDeps } from './webhook-authorizer.js';
export { WebhookEntry } from './webhook-entry.js';
export { DecisionCache, DEFAULT_MAX_ENTRIES } from './decision-cache.js';
export {
  SubjectAccessReviewClient, SubjectAccessReviewError, SUBJECT_ACCESS_REVIEW_GROUP,
} from './subject-access-review-client.js';
export type { ReviewStatus } from './subject-access-review-client.js';
