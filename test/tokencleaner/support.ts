// Bootstrap token Secrets for the token cleaner's tests.

/** The controller's name upstream. */
export const CLEANER = 'token-cleaner-controller';
export const TOKEN_SECRET = '0123456789abcdef';

export const secretsOf = (namespace: string) => `/api/v1/namespaces/${namespace}/secrets`;

/** Secret bootstrap-token-<id>, good for authentication, expiring at `expiration` (never, without). */
export function bootstrapToken(id: string, expiration?: string) {
  return {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.platform/token',
    stringData: { 'token-id': id, 'token-secret': TOKEN_SECRET, 'usage-bootstrap-authentication': 'true', ...(expiration === undefined ? {} : { expiration }) },
  };
}
