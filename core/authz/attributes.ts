// What an authorizer decides on (authorizer.Attributes upstream).
import type { UserInfo } from '../authn/user.js';
import type { SelectorAttributes } from './selector-attributes.js';

export interface Attributes {
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; or approve/sign for signers. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The field and label selectors of a collection request or an access review; authorizers may ignore them. */
  readonly selectors?: SelectorAttributes;
  /**
   * The request's context (its deadline, or the client gone; a long-running request, a watch, has
   * no deadline), absent where there is no request: what an authorizer's calls end with, as
   * upstream's Authorize(ctx, ...).
   */
  readonly context?: AbortSignal;
}

/**
 * An authorizer's answer. No opinion is `undefined`, or `noOpinion` when the authorizer says why
 * (upstream's DecisionNoOpinion with a reason): the chain then goes on, and if nobody decides the
 * reasons end the 403 and fill a SubjectAccessReview's status.reason (union.ts). A deny with an
 * `error` is upstream's DecisionDeny returned with an error (a webhook that could not be asked
 * under failurePolicy Deny): a request gets 500 with the error, an access review its evaluationError.
 */
export type Decision =
  | { readonly decision: 'allow'; readonly reason?: string }
  | { readonly decision: 'deny'; readonly reason: string; readonly error?: string }
  | { readonly decision: 'noOpinion'; readonly reason?: string };

/** "User \"alice\" cannot list resource \"certificatesigningrequests\" in API group \"...\" at the cluster scope" */
export function describeForbidden(a: Attributes): string {
  const who = `User "${a.user.name}"`;
  if (!a.isResourceRequest) return `${who} cannot ${a.verb.toLowerCase()} path "${a.path}"`;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${who} cannot ${a.verb} resource "${res}" in API group "${a.apiGroup}" ${scope}`;
}
