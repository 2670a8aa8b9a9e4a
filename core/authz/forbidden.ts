// responsewriters.Forbidden: the 403 for a request the authorizers (or the impersonation checks) did
// not allow, on the API server and on the controller manager's endpoint alike. The request's part
// of the message (user, verb, path or resource) is echoed from the request, so it is sanitized to
// never read as HTML (quotes are fine); the authorizer's reason follows; the answer says nosniff.
import { errors, type StatusError } from '../api/errors.js';
import { describeForbidden, type Attributes } from './attributes.js';

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** responsewriters' sanitizer (& < >), for every error text that echoes a request. */
export const sanitizeHtml = (text: string): string => text.replace(/[&<>]/g, (c) => HTML[c]!);

export function forbiddenError(a: Attributes, reason?: string): StatusError {
  const why = sanitizeHtml(describeForbidden(a)) + (reason ? `: ${reason}` : '');
  const e = a.isResourceRequest
    ? errors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, why)
    : errors.forbiddenPath(`forbidden: ${why}`);
  e.headers['X-Content-Type-Options'] = 'nosniff';
  return e;
}
