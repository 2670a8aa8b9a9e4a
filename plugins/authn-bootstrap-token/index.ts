// BootstrapTokenAuthenticator: --enable-bootstrap-token-auth (k8s-behaviour §6, renamed). A bearer
// token `<id>.<secret>` is the user system:bootstrap:<id> when Secret `bootstrap-token-<id>` in
// plat-system, of type bootstrap.platform/token, holds that secret (constant-time comparison), is
// not expired, allows authentication and names only system:bootstrappers:* extra groups. The
// Secret is read from storage directly (no HTTP self-call). A token of this format that fails any
// check is refused as upstream refuses it: why is logged at -v=3 in upstream's words (the secret
// presented left out: tokens never reach the log), and the client, a TokenReview's status.error
// included, learns only what upstream's bearer token authenticator says of any token no one
// accepts, `invalid bearer token`: not whether the token id exists.
import { equalConstantTime } from '../../core/authn/constant-time.js';
import { BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_TYPE, bootstrapSecretData, type BootstrapSecretLike, bootstrapTokenExpiration } from '../../core/bootstrap-token.js';
import { goQuote } from '../../core/go-quote.js';
import { requestToken } from '../../core/authn/bearer.js';
import { rejectToken, tokenAuthenticationEnabled } from '../../core/authn/token-authentication.js';
import { authenticateAudienceAgnostic } from '../../core/authn/api-audiences.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { servedStore } from '../../core/registry/stores.js';

const PLUGIN_NAME = 'BootstrapTokenAuthenticator';
export const ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG = 'enable-bootstrap-token-auth';
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/**
 * Checks a token against its Secret: the user, or why not, as upstream's klog.V(3) line says it
 * (tokenErrorf and cluster-bootstrap's expiration check) but for the presented secret.
 */
export function checkBootstrapSecret(secret: Record<string, unknown> | undefined, id: string, tokenSecret: string, now: Date): UserInfo | string {
  const name = `bootstrap-token-${id}`;
  if (!secret) return `No secret of name ${name} to match bootstrap bearer token`;
  const tokenError = (what: string) => `Bootstrap secret ${BOOTSTRAP_TOKEN_NAMESPACE}/${name} matching bearer token ${what}`;
  const meta = (secret['metadata'] ?? {}) as { deletionTimestamp?: string };
  if (meta.deletionTimestamp) return tokenError('is deleted and awaiting removal');
  const data = secret['data'] as Record<string, string> | undefined;
  const decode = (key: string) => bootstrapSecretData({ data }, key);
  if (secret['type'] !== BOOTSTRAP_TOKEN_SECRET_TYPE || !data || Object.keys(data).length === 0) {
    return tokenError(`has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`);
  }
  // Upstream adds "expected <the presented secret>": a token never reaches plat's log.
  if (!equalConstantTime(decode('token-secret') ?? '', tokenSecret)) return tokenError('has invalid value for key token-secret.');
  if (decode('token-id') !== id) return tokenError(`has invalid value for key token-id, expected ${id}.`);
  // cluster-bootstrap's GetExpiration, which the token cleaner reads too.
  const expiration = bootstrapTokenExpiration(secret as BootstrapSecretLike, now);
  if (expiration.expired) return expiration.message;
  if (decode('usage-bootstrap-authentication') !== 'true') return tokenError('not marked usage-bootstrap-authentication=true.');
  // GetGroups: every comma-separated piece must be a valid group name as it is, spaces and
  // empty pieces included; only an empty value means no extra groups.
  const extraGroups = decode('auth-extra-groups') ?? '';
  const extras = extraGroups === '' ? [] : extraGroups.split(',');
  const bad = extras.find((g) => !EXTRA_GROUP.test(g));
  if (bad !== undefined) {
    return tokenError(`has invalid value for key auth-extra-groups: bootstrap group ${goQuote(bad)} is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z).`);
  }
  const groups = [...new Set([BOOTSTRAPPERS_GROUP, ...extras])].sort();
  return { name: `system:bootstrap:${id}`, groups };
}

export const BootstrapTokenAuthenticator: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      flags.define({
        name: ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG, type: 'bool', default: false,
        help: 'Allow secrets of type `bootstrap.platform/token` in namespace `plat-system` for TLS bootstrap authentication.',
        section: 'Authentication options', owner: PLUGIN_NAME,
      });
    });
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      if (!cfg.flags.get<boolean>(ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG)) return;
      const log = host.logger.child(PLUGIN_NAME);
      tokenAuthenticationEnabled(host);
      host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: 5 }, async (req) => {
        const token = requestToken(req);
        if (token === undefined) return undefined;
        const m = TOKEN.exec(token);
        if (!m) return undefined;
        const [, id, tokenSecret] = m as unknown as [string, string, string];
        // Audience-agnostic, as upstream wraps this authenticator (WrapAudienceAgnosticToken).
        return authenticateAudienceAgnostic(host, req, async () => {
          const secrets = servedStore(host, '', 'v1', 'secrets');
          // Upstream's lister failing otherwise than NotFound is its error.
          if (!secrets) { rejectToken(req, 'secrets are not served'); return undefined; }
          const kv = await secrets.storage.get(secrets.keyFor(BOOTSTRAP_TOKEN_NAMESPACE, `bootstrap-token-${id}`));
          const result = checkBootstrapSecret(kv?.value as Record<string, unknown> | undefined, id, tokenSecret, new Date());
          if (typeof result === 'string') {
            // Upstream returns no error, and its bearer token authenticator then refuses the token
            // with `invalid bearer token` (core/authn/token-authentication.ts).
            log.v(3).info(result);
            return undefined;
          }
          return result;
        });
      });
    });
  },
};
