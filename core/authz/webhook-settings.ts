// What one Webhook authorizer of the chain is configured with: an AuthorizationConfiguration
// entry's `webhook` (read and checked by the plugin that owns --authorization-config), or the
// --authorization-webhook-* flags. It travels from that plugin to the webhook authorizer as the
// chain entry's `settings`.

export const SUBJECT_ACCESS_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type SubjectAccessReviewVersion = (typeof SUBJECT_ACCESS_REVIEW_VERSIONS)[number];

export const FAILURE_POLICIES = ['NoOpinion', 'Deny'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

export interface WebhookAuthorizerSettings {
  readonly authorizedTTLMs: number;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTLMs: number;
  readonly cacheUnauthorizedRequests: boolean;
  /** Bounds each attempt of a review (client-go's rest.Config Timeout), not the attempts together. */
  readonly timeoutMs: number;
  readonly subjectAccessReviewVersion: SubjectAccessReviewVersion;
  /** The decision when the call fails, the answer is malformed, or a match condition errs. */
  readonly failurePolicy: FailurePolicy;
  /** Absolute path of the kubeconfig-format connection file. */
  readonly kubeConfigFile: string;
  /** CEL expressions over `request`; all must be true for the webhook to be asked. Already checked to compile. */
  readonly matchConditions: readonly string[];
}
