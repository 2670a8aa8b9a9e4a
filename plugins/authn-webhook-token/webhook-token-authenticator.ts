// WebhookTokenAuthenticator: --authentication-token-webhook-config-file. A bearer token no earlier
// authenticator accepted is sent to a webhook in a TokenReview; the webhook's status.user becomes
// the request's user. Fail closed: a webhook that says no, cannot be reached, times out or answers
// nonsense leaves the request rejected (401 unless a later authenticator accepts the token), never
// anonymous, and the server goes on serving requests with other credentials.
import type { UserInfo } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { StartupError } from '../../core/plugin.js';
import { requestToken } from '../../core/authn/bearer.js';
import { rejectToken, tokenAuthenticationEnabled } from '../../core/authn/token-authentication.js';
import { apiAudiences, intersectAudiences, targetAudiences } from '../../core/authn/api-audiences.js';
import { ReviewCache } from './cache.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import {
  TokenReviewClient, TokenReviewError, WEBHOOK_VERSIONS,
  type Backoff, type WebhookVersion,
} from './token-review-client.js';

const PLUGIN_NAME = 'WebhookTokenAuthenticator';
const SECTION = 'Authentication options';

export const WEBHOOK_CONFIG_FILE_FLAG = 'authentication-token-webhook-config-file';
export const WEBHOOK_CACHE_TTL_FLAG = 'authentication-token-webhook-cache-ttl';
export const WEBHOOK_VERSION_FLAG = 'authentication-token-webhook-version';
/** After the static token file (stage 0), so its tokens never reach the webhook. */
export const WEBHOOK_TOKEN_STAGE = 10;
/** cached_token_authenticator.go's sharedLookupTimeout. */
const SHARED_LOOKUP_TIMEOUT_MS = 30_000;

export interface WebhookTokenAuthenticatorDeps {
  /** Bound on each attempt of a review (default 30s, upstream's LoadKubeconfig timeout), not on the attempts together. */
  readonly timeoutMs?: number;
  readonly backoff?: Backoff;
  readonly sleep?: (ms: number, context?: AbortSignal) => Promise<void>;
  /**
   * Bound on a whole review, its attempts and the backoff between them (default 30s): upstream's
   * token cache, which always wraps the webhook, detaches the lookup from the request into a
   * context of sharedLookupTimeout, whatever the cache TTL.
   */
  readonly lookupTimeoutMs?: number;
  /** Cache clock, milliseconds since the epoch. */
  readonly now?: () => number;
  readonly maxCacheEntries?: number;
}

export function createWebhookTokenAuthenticator(deps: WebhookTokenAuthenticatorDeps = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      const log = host.logger.child(PLUGIN_NAME);
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
        flags.define({
          name: WEBHOOK_CONFIG_FILE_FLAG, type: 'string', section: SECTION, owner: PLUGIN_NAME,
          help: 'Webhook configuration (connection-settings file format) for bearer-token authentication.',
        });
        flags.define({
          name: WEBHOOK_CACHE_TTL_FLAG, type: 'duration', default: 2 * 60_000, section: SECTION, owner: PLUGIN_NAME,
          help: 'Cache time of webhook token authenticator responses.',
        });
        flags.define({
          name: WEBHOOK_VERSION_FLAG, type: 'string', default: 'v1beta1', enum: WEBHOOK_VERSIONS, section: SECTION, owner: PLUGIN_NAME,
          help: 'API version of the token review object sent to and expected from the webhook.',
        });
      });

      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const file = cfg.flags.get<string>(WEBHOOK_CONFIG_FILE_FLAG);
        if (!file) return;
        const version = cfg.flags.get<string>(WEBHOOK_VERSION_FLAG);
        if (!(WEBHOOK_VERSIONS as readonly string[]).includes(version)) {
          throw new StartupError(`--${WEBHOOK_VERSION_FLAG}: unsupported version ${JSON.stringify(version)} (use ${WEBHOOK_VERSIONS.join(' or ')})`);
        }
        const ttlMs = cfg.flags.get<number>(WEBHOOK_CACHE_TTL_FLAG);
        let client: TokenReviewClient;
        try {
          client = new TokenReviewClient({
            connection: loadKubeconfig(file),
            version: version as WebhookVersion,
            ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
            ...(deps.backoff ? { backoff: deps.backoff } : {}),
            ...(deps.sleep ? { sleep: deps.sleep } : {}),
            logger: log,
          });
        } catch (err) {
          const why = err instanceof KubeconfigError ? err.message : `TLS settings: ${(err as Error).message}`;
          throw new StartupError(`--${WEBHOOK_CONFIG_FILE_FLAG} '${file}': ${why}`);
        }
        const cache = new ReviewCache({
          ttlMs,
          ...(deps.now ? { now: deps.now } : {}),
          ...(deps.maxCacheEntries !== undefined ? { maxEntries: deps.maxCacheEntries } : {}),
        });
        log.info('webhook token authentication enabled', { config: file, apiVersion: client.apiVersion, cacheTTLms: ttlMs });

        tokenAuthenticationEnabled(host);
        host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: WEBHOOK_TOKEN_STAGE }, async (req): Promise<UserInfo | undefined> => {
          const token = requestToken(req);
          if (token === undefined) return undefined;
          const target = targetAudiences(host, req);
          let result;
          try {
            result = await cache.get(token, (t) => client.review(t, target, AbortSignal.timeout(deps.lookupTimeoutMs ?? SHARED_LOOKUP_TIMEOUT_MS)), target);
          } catch (err) {
            // webhook.go: "An error here indicates bad configuration or an outage."
            const reason = err instanceof TokenReviewError ? err.message : 'webhook request failed';
            log.error(`Failed to make webhook authenticator request: ${reason}`);
            rejectToken(req, reason);
            return undefined;
          }
          // Audience-aware, as upstream's webhook authenticator: with target audiences, the token is
          // good for those of them the webhook named (none named: the API audiences); when that is
          // none it is not authenticated, without an error, whatever the webhook said.
          let granted: readonly string[] | undefined;
          if (target.length) {
            granted = intersectAudiences(result.audiences ?? apiAudiences(host), target);
            if (granted.length === 0) return undefined;
          }
          if (result.authenticated) {
            if (granted) req.granted?.(granted);
            return result.user;
          }
          // The webhook's status.error is upstream's error, minus the token should it echo it; with
          // none the token is not recognised, and the bearer token authenticator says so.
          const error = result.error?.split(token).join('<token>');
          log.v(2).info('token review refused the token', { path: req.path, ...(error ? { error } : {}) });
          if (error) rejectToken(req, error);
          return undefined;
        });
        host.hooks.shutdown.tap(PLUGIN_NAME, () => client.close());
      });
    },
  };
}

export const WebhookTokenAuthenticator: Plugin = createWebhookTokenAuthenticator();
