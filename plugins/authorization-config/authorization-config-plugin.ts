// AuthorizationConfigPlugin: --authorization-config. Reads the AuthorizationConfiguration file once
// at start-up, refuses it with every problem named (file, field path, upstream's message), and
// publishes its authorizers as the chain (setAuthorizerChain) at configure stage -100, before the
// authorizer plugins look up their entries. Like upstream, the file excludes --authorization-mode
// and the --authorization-webhook-* flags.
import path from 'node:path';
import { setAuthorizerChain, type AuthorizerEntry } from '../../core/authz/chain.js';
import type { SubjectAccessReviewVersion, FailurePolicy, WebhookAuthorizerSettings } from '../../core/authz/webhook-settings.js';
import { ConfigError } from '../../core/config/config-error.js';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { readAuthorizationConfiguration, UnreadableConfigError, type WebhookDoc } from './decode.js';
import { validateAuthorizationConfiguration } from './validate.js';

const PLUGIN_NAME = 'AuthorizationConfigPlugin';
export const AUTHORIZATION_CONFIG_FLAG = 'authorization-config';
/** Flags the file replaces (pkg/kubeapiserver/options AreLegacyFlagsSet). */
export const LEGACY_AUTHORIZATION_FLAGS = [
  'authorization-mode', 'authorization-webhook-config-file', 'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl',
];

function settings(w: WebhookDoc): WebhookAuthorizerSettings {
  return {
    authorizedTTLMs: w.authorizedTTL,
    cacheAuthorizedRequests: w.cacheAuthorizedRequests,
    unauthorizedTTLMs: w.unauthorizedTTL,
    cacheUnauthorizedRequests: w.cacheUnauthorizedRequests,
    timeoutMs: w.timeout,
    subjectAccessReviewVersion: w.subjectAccessReviewVersion as SubjectAccessReviewVersion,
    failurePolicy: w.failurePolicy as FailurePolicy,
    kubeConfigFile: w.connectionInfo.kubeConfigFile!,
    matchConditions: w.matchConditions.map((m) => m.expression),
  };
}

/** The chain the file describes; throws a StartupError naming the file and every problem. */
export function loadAuthorizerChain(file: string, given = file): AuthorizerEntry[] {
  const fail = (lines: string) => new StartupError(`--${AUTHORIZATION_CONFIG_FLAG}: ${lines}`);
  let doc;
  try {
    doc = readAuthorizationConfiguration(file, given);
  } catch (err) {
    // BuiltInAuthorizationOptions.Validate returns LoadAndValidateFile's os error unwrapped.
    if (err instanceof UnreadableConfigError) throw new StartupError(err.message);
    if (err instanceof ConfigError) throw fail(err.message.split('\n').join(`\n--${AUTHORIZATION_CONFIG_FLAG}: `));
    throw err;
  }
  const problems = validateAuthorizationConfiguration(doc);
  if (problems.length) throw fail(problems.map((p) => `${file}: ${p}`).join(`\n--${AUTHORIZATION_CONFIG_FLAG}: `));
  return doc.authorizers.map((a) => ({ type: a.type, name: a.name, ...(a.webhook ? { settings: settings(a.webhook) } : {}) }));
}

export const AuthorizationConfigPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => flags.define({
      name: AUTHORIZATION_CONFIG_FLAG, type: 'string', section: 'Authorization options', owner: PLUGIN_NAME,
      help: 'Authorization configuration file for the authorizer chain; requires feature StructuredAuthorizationConfiguration; exclusive with --authorization-mode and the --authorization-webhook-* options.',
    }));

    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: -100 }, (cfg) => {
      const file = cfg.flags.get<string>(AUTHORIZATION_CONFIG_FLAG);
      if (!file) return;
      if (LEGACY_AUTHORIZATION_FLAGS.some((f) => cfg.flags.has(f) && cfg.flags.isSet(f))) {
        throw new StartupError(`--${AUTHORIZATION_CONFIG_FLAG} can not be specified when --authorization-mode or --authorization-webhook-* flags are defined`, 2);
      }
      const chain = loadAuthorizerChain(path.resolve(file), file);
      setAuthorizerChain(host, chain);
      host.logger.child(PLUGIN_NAME).info('authorizer chain from the authorization configuration file', {
        file, authorizers: chain.map((e) => (e.type === 'Webhook' ? `${e.type}/${e.name}` : e.type)),
      });
    });
  },
};
