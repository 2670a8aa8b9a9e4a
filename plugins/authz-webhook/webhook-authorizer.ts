// WebhookAuthorizer: authorization mode Webhook. Each Webhook entry of the chain (one named
// "default" from --authorization-mode and the --authorization-webhook-* flags, or any number from
// --authorization-config) gets its own connection, match conditions and cache, and taps
// `authorize` at the stage of its place in the chain. The flag-configured webhook behaves as
// upstream builds it: 30s timeout, failurePolicy NoOpinion, a TTL of 0 turns that cache off. A
// webhook cannot list a user's rules (rulesFor): incomplete, with upstream's error.
import path from 'node:path';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { AUTHORIZATION_MODE_KIND, chainEntries } from '../../core/authz/chain.js';
import { cannotListRules } from '../../core/authz/rules.js';
import { compileMatchCondition, MatchConditionError } from '../../core/authz/match-conditions.js';
import {
  SUBJECT_ACCESS_REVIEW_VERSIONS, type SubjectAccessReviewVersion, type WebhookAuthorizerSettings,
} from '../../core/authz/webhook-settings.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import type { Backoff } from '../../core/client/webhook-client.js';
import type { FlagSet } from '../../core/flags/types.js';
import { DecisionCache } from './decision-cache.js';
import { SubjectAccessReviewClient } from './subject-access-review-client.js';
import { WebhookEntry } from './webhook-entry.js';

const PLUGIN_NAME = 'WebhookAuthorizer';
const MODE = 'Webhook';
const SECTION = 'Authorization options';

export const WEBHOOK_CONFIG_FILE_FLAG = 'authorization-webhook-config-file';
export const WEBHOOK_VERSION_FLAG = 'authorization-webhook-version';
export const WEBHOOK_AUTHORIZED_TTL_FLAG = 'authorization-webhook-cache-authorized-ttl';
export const WEBHOOK_UNAUTHORIZED_TTL_FLAG = 'authorization-webhook-cache-unauthorized-ttl';
/** upstream's name for the flag-configured webhook (options.defaultWebhookName). */
export const DEFAULT_WEBHOOK_NAME = 'default';
const LEGACY_TIMEOUT_MS = 30_000;

export interface WebhookAuthorizerDeps {
  readonly backoff?: Backoff;
  /** The backoff's waits between attempts, told the caller's context (WebhookClientOptions.sleep); injectable so tests need not sleep. */
  readonly sleep?: (ms: number, context?: AbortSignal) => Promise<void>;
  /** Cache clock, milliseconds since the epoch. */
  readonly now?: () => number;
  readonly maxCacheEntries?: number;
}

const WEBHOOK_RULES = cannotListRules('webhook authorizer');

const notNegative = (v: unknown) => ((v as number) < 0 ? 'must not be negative' : undefined);

/** The flag-configured webhook, as upstream's buildAuthorizationConfiguration makes it. */
function legacySettings(flags: FlagSet): WebhookAuthorizerSettings {
  const authorizedTTLMs = flags.get<number>(WEBHOOK_AUTHORIZED_TTL_FLAG);
  const unauthorizedTTLMs = flags.get<number>(WEBHOOK_UNAUTHORIZED_TTL_FLAG);
  return {
    authorizedTTLMs, cacheAuthorizedRequests: authorizedTTLMs !== 0,
    unauthorizedTTLMs, cacheUnauthorizedRequests: unauthorizedTTLMs !== 0,
    timeoutMs: LEGACY_TIMEOUT_MS,
    subjectAccessReviewVersion: flags.get<string>(WEBHOOK_VERSION_FLAG) as SubjectAccessReviewVersion,
    failurePolicy: 'NoOpinion',
    kubeConfigFile: path.resolve(flags.get<string>(WEBHOOK_CONFIG_FILE_FLAG)),
    matchConditions: [],
  };
}

export function createWebhookAuthorizer(deps: WebhookAuthorizerDeps = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
        const define = (spec: Omit<Parameters<FlagSet['define']>[0], 'section' | 'owner'>) => flags.define({ ...spec, section: SECTION, owner: PLUGIN_NAME });
        define({ name: WEBHOOK_CONFIG_FILE_FLAG, type: 'string', help: 'Webhook configuration for Webhook mode.' });
        define({
          name: WEBHOOK_VERSION_FLAG, type: 'string', default: 'v1beta1', enum: SUBJECT_ACCESS_REVIEW_VERSIONS,
          help: 'API version of the access review object exchanged with the webhook.',
        });
        define({ name: WEBHOOK_AUTHORIZED_TTL_FLAG, type: 'duration', default: 5 * 60_000, validate: notNegative, help: 'Cache of authorized responses.' });
        define({ name: WEBHOOK_UNAUTHORIZED_TTL_FLAG, type: 'duration', default: 30_000, validate: notNegative, help: 'Cache of unauthorized responses.' });
      });

      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const log = host.logger.child(PLUGIN_NAME);
        const entries = chainEntries(host, cfg.flags, MODE);
        const file = cfg.flags.get<string>(WEBHOOK_CONFIG_FILE_FLAG);
        const fromFlags = entries.some(({ entry }) => entry.settings === undefined);
        if (fromFlags && !file) throw new StartupError(`authorization-mode ${MODE}'s authorization config file not passed`, 2);
        if (file && !fromFlags) throw new StartupError(`cannot specify --${WEBHOOK_CONFIG_FILE_FLAG} without mode ${MODE}`, 2);

        for (const { entry, stage } of entries) {
          const settings = (entry.settings as WebhookAuthorizerSettings | undefined) ?? legacySettings(cfg.flags);
          const name = entry.settings === undefined ? DEFAULT_WEBHOOK_NAME : entry.name;
          const where = entry.settings === undefined
            ? `--${WEBHOOK_CONFIG_FILE_FLAG} '${settings.kubeConfigFile}'`
            : `--authorization-config: authorizer "${name}": kubeConfigFile '${settings.kubeConfigFile}'`;
          let client: SubjectAccessReviewClient;
          try {
            client = new SubjectAccessReviewClient({
              connection: loadKubeconfig(settings.kubeConfigFile), version: settings.subjectAccessReviewVersion, timeoutMs: settings.timeoutMs,
              ...(deps.backoff ? { backoff: deps.backoff } : {}),
              ...(deps.sleep ? { sleep: deps.sleep } : {}),
              logger: log,
            });
          } catch (err) {
            throw new StartupError(`${where}: ${err instanceof KubeconfigError ? err.message : `TLS settings: ${(err as Error).message}`}`);
          }
          host.hooks.shutdown.tap(PLUGIN_NAME, () => client.close());
          const conditions = settings.matchConditions.map((expression) => {
            try {
              return compileMatchCondition(expression);
            } catch (err) {
              if (err instanceof MatchConditionError) throw new StartupError(`authorizer "${name}": match condition ${JSON.stringify(expression)}: ${err.detail}`);
              throw err;
            }
          });
          const authorizer = new WebhookEntry({
            name, settings, client, conditions, log,
            cache: new DecisionCache({
              ...(deps.now ? { now: deps.now } : {}),
              ...(deps.maxCacheEntries !== undefined ? { maxEntries: deps.maxCacheEntries } : {}),
            }),
          });
          host.hooks.authorize.tapPromise({ name: PLUGIN_NAME, stage }, (attrs) => authorizer.authorize(attrs));
          host.hooks.rulesFor.tap({ name: PLUGIN_NAME, stage }, () => WEBHOOK_RULES);
          log.info('webhook authorizer enabled', {
            authorizer: name, config: settings.kubeConfigFile, apiVersion: client.apiVersion, failurePolicy: settings.failurePolicy,
            timeoutMs: settings.timeoutMs, matchConditions: conditions.length,
          });
        }
      });
    },
  };
}

export const WebhookAuthorizer: Plugin = createWebhookAuthorizer();
