// Impersonation (upstream's WithImpersonation filter): a caller may act as another user with
// Impersonate-User, -Group (repeatable), -Uid and -Extra-<key> headers, each of which must be
// allowed to it by the authorizer chain with verb `impersonate` on users / groups /
// serviceaccounts (core group), uids / userextras (authentication.platform). Every check must pass
// (fail closed); the request then runs as the impersonated user, the headers removed.
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../api/selectors/label-syntax.js';
import { goHeaderText } from '../authn/identity-headers.js';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from '../authn/user.js';
import type { Attributes } from '../authz/attributes.js';
import { forbiddenError } from '../authz/forbidden.js';
import { AuthorizationError, authorizeUnion } from '../authz/union.js';
import type { Hooks } from '../hooks.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.platform';
const AUTHENTICATION_VERSION = 'v1';
const SA_PREFIX = 'system:serviceaccount:';

/** One v1.ObjectReference of buildImpersonationRequests: uids and user extras carry authentication/v1. */
interface Target { kind: 'User' | 'ServiceAccount' | 'Group' | 'UID' | 'UserExtra'; name: string; namespace?: string; key?: string }

/** Groups, extras or a uid without a user: upstream answers it with responsewriters.InternalError. */
export class ImpersonationRequestError extends Error {}

const inAuthenticationGroup = (t: Target): boolean => t.kind === 'UID' || t.kind === 'UserExtra';
const apiVersionOf = (t: Target): string => (inAuthenticationGroup(t) ? `${AUTHENTICATION_GROUP}/${AUTHENTICATION_VERSION}` : '');

/** Go's %v of the v1.ObjectReference: Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath. */
const goObjectReference = (t: Target): string => `{${[t.kind, t.namespace ?? '', t.name, '', apiVersionOf(t), '', t.key ?? ''].join(' ')}}`;

/** Values of a header as sent, one per occurrence (Node joins repeats in `headers`). */
function values(rawHeaders: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) out.push(goHeaderText(rawHeaders[i + 1]!));
  return out;
}

function unescapeKey(key: string): string {
  try { return decodeURIComponent(key); } catch { return key; }
}

/**
 * serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with a valid namespace (a
 * DNS-1123 label) and service account name (a DNS-1123 subdomain). Anything else is a plain user,
 * which must not be granted the service account groups of a namespace named by a malformed string.
 */
function splitServiceAccount(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SA_PREFIX)) return undefined;
  const parts = user.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (dns1123LabelErrors(namespace).length || dns1123SubdomainErrors(name).length) return undefined;
  return { namespace, name };
}

function targets(rawHeaders: readonly string[]): Target[] {
  const out: Target[] = [];
  const user = values(rawHeaders, USER)[0] ?? '';
  if (user) {
    const sa = splitServiceAccount(user);
    out.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: user });
  }
  for (const g of values(rawHeaders, GROUP)) out.push({ kind: 'Group', name: g });
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const h = rawHeaders[i]!.toLowerCase();
    if (h.startsWith(EXTRA_PREFIX)) out.push({ kind: 'UserExtra', key: unescapeKey(h.slice(EXTRA_PREFIX.length)), name: goHeaderText(rawHeaders[i + 1]!) });
  }
  const uid = values(rawHeaders, UID)[0] ?? '';
  if (uid) out.push({ kind: 'UID', name: uid });
  if (!user && out.length) throw new ImpersonationRequestError(`requested [${out.map(goObjectReference).join(' ')}] without impersonating a user`);
  return out;
}

function attributesFor(requestor: UserInfo, t: Target): Attributes {
  const base = { user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', apiVersion: inAuthenticationGroup(t) ? AUTHENTICATION_VERSION : '', subresource: '', namespace: '', name: t.name };
  switch (t.kind) {
    case 'ServiceAccount': return { ...base, apiGroup: '', resource: 'serviceaccounts', namespace: t.namespace! };
    case 'User': return { ...base, apiGroup: '', resource: 'users' };
    case 'Group': return { ...base, apiGroup: '', resource: 'groups' };
    case 'UID': return { ...base, apiGroup: AUTHENTICATION_GROUP, resource: 'uids' };
    case 'UserExtra': return { ...base, apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: t.key! };
  }
}

const PREFIX = 'impersonate-';

/**
 * Whether any header is named `Impersonate-...` (every one targets() reads is): one pass with no
 * lower-casing of the usual headers, where targets() makes four, for the requests (nearly all)
 * that ask for none.
 */
function asksImpersonation(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const h = rawHeaders[i]!;
    if (h.length > PREFIX.length && (h.charCodeAt(0) | 0x20) === 0x69 && h.slice(0, PREFIX.length).toLowerCase() === PREFIX) return true;
  }
  return false;
}

/** The user a request acts as: `requestor` itself when it asks for no impersonation. */
export async function impersonate(hooks: Pick<Hooks, 'authorize'>, requestor: UserInfo, rawHeaders: readonly string[]): Promise<UserInfo> {
  if (!asksImpersonation(rawHeaders)) return requestor;
  const wanted = targets(rawHeaders);
  if (wanted.length === 0) return requestor;
  const groupsSpecified = wanted.some((t) => t.kind === 'Group');
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const t of wanted) {
    const attrs = attributesFor(requestor, t);
    let decision;
    // Upstream answers an authorizer error here with 403 too, ending with the no-opinion reasons.
    try { decision = await authorizeUnion(hooks.authorize, attrs); } catch (e) { decision = e instanceof AuthorizationError && e.reason ? { decision: 'noOpinion' as const, reason: e.reason } : undefined; }
    if (decision?.decision !== 'allow') {
      throw forbiddenError(attrs, decision?.reason);
    }
    if (t.kind === 'ServiceAccount') {
      name = `${SA_PREFIX}${t.namespace}:${t.name}`;
      if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${t.namespace}`];
    } else if (t.kind === 'User') name = t.name;
    else if (t.kind === 'Group') groups.push(t.name);
    else if (t.kind === 'UID') uid = t.name;
    else (extra[t.key!] ??= []).push(t.name);
  }
  if (name !== ANONYMOUS_USER) {
    if (!groups.includes(AUTHENTICATED_GROUP) && !groups.includes(UNAUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP);
  } else if (!groups.includes(UNAUTHENTICATED_GROUP)) groups.push(UNAUTHENTICATED_GROUP);
  return { name, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}

export const isImpersonationHeader = (h: string): boolean => {
  const l = h.toLowerCase();
  return l === USER || l === GROUP || l === UID || l.startsWith(EXTRA_PREFIX);
};
