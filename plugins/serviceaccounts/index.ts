// ServiceAccountsPlugin: core/v1 ServiceAccounts, their `token` subresource (TokenRequest), the
// service-account token authenticator and the issuer's discovery documents. Enabled by
// --service-account-issuer; the first issuer signs (with --service-account-signing-key-file),
// every issuer is accepted, and tokens verify with the --service-account-key-file keys. Legacy
// Secret-based tokens (issuer platform/serviceaccount, signed by the controller manager's tokens
// controller) verify with the same keys and are checked against their Secret (--service-account-lookup).
import type { KeyObject } from 'node:crypto';
import { tokenAuthenticationEnabled } from '../../core/authn/token-authentication.js';
import { setApiAudiences } from '../../core/authn/api-audiences.js';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { algorithmForKey, keyId, signJwt } from '../../core/authn/jwt.js';
import { servedExternalAddress, servedStore } from '../../core/registry/stores.js';
import { serviceAccountResource } from './service-account.js';
import { tokenSubresource, type TokenSigner } from './token-request.js';
import { NODE_BINDING_GATE, type BoundStores } from './bound-object.js';
import { ServiceAccountTokenAuthenticator } from './token-authenticator.js';
import { LegacyValidator } from './legacy-validator.js';
import { LAST_USED_LABEL, LEGACY_ISSUER } from '../../core/authn/legacy-service-account-token.js';
import { MASTERS_GROUP } from '../../core/authn/user.js';
import { DISCOVERY_PATH, discoveryHeaders, issuerDiscoveryProblem, JWKS_CONTENT_TYPE, JWKS_PATH, renderIssuerDiscovery, type IssuerDiscovery } from './issuer-discovery.js';
import { holdsKey, KeyFileError, privateKeyFromFile, publicKeysFromFile, UnreadableKeyFileError } from '../../core/authn/key-files.js';
import { serviceAccountFlags, FLAG } from './flags.js';

const PLUGIN_NAME = 'ServiceAccountsPlugin';
/** Who the API server's own writes are (upstream's loopback client). */
const SYSTEM_USER = { name: 'system:apiserver', groups: [MASTERS_GROUP] };
/** Upstream's token authenticators run token file, service accounts, bootstrap tokens: between 0 and 5. */
export const SERVICE_ACCOUNT_TOKEN_STAGE = 2;
const HOUR_S = 3600;
const MAX_EXPIRATION_S = 2 ** 32;

interface Settings {
  issuers: string[];
  keys: KeyObject[];
  signer?: TokenSigner;
  /** kid of the signing key, to warn when no verifying key matches it. */
  signingKeyId?: string;
  apiAudiences: string[];
  lookup: boolean;
  jwksUri?: string;
}

function validateIssuers(issuers: readonly string[]): void {
  const seen = new Set<string>();
  for (const iss of issuers) {
    if (iss === '') throw new StartupError(`--${FLAG.issuer}: an issuer may not be empty`, 2);
    if (iss.includes(':')) {
      try { new URL(iss); } catch { throw new StartupError(`--${FLAG.issuer}: service-account-issuer "${iss}" contained a ':' but was not a valid URL`, 2); }
    }
    if (seen.has(iss)) throw new StartupError(`--${FLAG.issuer}: service-account-issuer "${iss}" is already specified`, 2);
    seen.add(iss);
  }
}

function settingsFrom(get: <T>(name: string) => T, isSet: (name: string) => boolean): Settings | undefined {
  const issuers = get<string[]>(FLAG.issuer);
  const keyFiles = get<string[]>(FLAG.keyFile);
  const signingKeyFile = get<string>(FLAG.signingKeyFile);
  const jwksUri = get<string>(FLAG.jwksUri);
  const maxMs = get<number>(FLAG.maxExpiration);
  if (issuers.length === 0) {
    const given = [FLAG.keyFile, FLAG.signingKeyFile, FLAG.jwksUri, FLAG.maxExpiration, FLAG.apiAudiences].filter((f) => isSet(f));
    if (given.length) throw new StartupError(`--${given[0]} requires --${FLAG.issuer} (service-account-issuer is a required flag)`, 2);
    return undefined;
  }
  validateIssuers(issuers);
  if (maxMs !== 0 && (maxMs < HOUR_S * 1000 || maxMs > MAX_EXPIRATION_S * 1000)) {
    throw new StartupError(`--${FLAG.maxExpiration}: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds`, 2);
  }
  if (jwksUri) {
    let u: URL | undefined;
    try { u = new URL(jwksUri); } catch { throw new StartupError(`--${FLAG.jwksUri}: service-account-jwks-uri contained a value that was not a valid URL: ${jwksUri}`, 2); }
    if (u.protocol !== 'https:') throw new StartupError(`--${FLAG.jwksUri}: service-account-jwks-uri requires https scheme, parsed as: ${u.href}`, 2);
  }

  const files = [...keyFiles];
  const tlsKey = get<string>('tls-private-key-file');
  // Upstream's default: the serving key, when it is a key these tokens can use.
  if (files.length === 0 && tlsKey && holdsKey(tlsKey)) files.push(tlsKey);
  if (files.length === 0) throw new StartupError(`--${FLAG.keyFile}: service-account-key-file is a required flag (no --tls-private-key-file to default to)`, 2);
  // An unreadable file in kube-apiserver's words: the public keys' os error as ToAuthenticationConfig
  // returns it, the signing key's inside Complete's wrapper.
  const load = <T>(flag: string, f: () => T, readWrapper: string): T => {
    try { return f(); } catch (e) {
      if (e instanceof KeyFileError) throw new StartupError(`--${flag}: ${e.message}`, 2);
      if (e instanceof UnreadableKeyFileError) throw new StartupError(readWrapper + e.message, 2);
      throw e;
    }
  };
  // The signing key first: upstream reads it in Complete, the public keys later.
  const signingKey = signingKeyFile
    ? load(FLAG.signingKeyFile, () => privateKeyFromFile(signingKeyFile), 'failed to parse service-account-issuer-key-file: ')
    : undefined;
  // validateTokenRequest: an issuer (validated non-empty above) asks for TokenRequest, which needs a signer.
  if (!signingKey) {
    throw new StartupError(`--${FLAG.signingKeyFile}, --${FLAG.issuer}, and --${FLAG.apiAudiences} should be specified together`, 2);
  }
  const keys = load(FLAG.keyFile, () => files.flatMap((f) => publicKeysFromFile(f)), '');
  const apiAudiences = get<string[]>(FLAG.apiAudiences);
  const settings: Settings = {
    issuers, keys, lookup: get<boolean>(FLAG.lookup),
    // kube-apiserver 1.32 defaults them to every issuer (ToAuthenticationConfig, ApplyTo), not the first.
    apiAudiences: apiAudiences.length ? apiAudiences : [...issuers],
    ...(jwksUri ? { jwksUri } : {}),
  };
  if (signingKey) {
    const key = signingKey;
    const alg = algorithmForKey(key);
    const kid = keyId(key);
    settings.signingKeyId = kid;
    settings.signer = {
      issuer: issuers[0]!, apiAudiences: settings.apiAudiences, maxExpirationSeconds: Math.floor(maxMs / 1000),
      sign: (claims) => signJwt(claims, key, { alg, kid }),
    };
  }
  return settings;
}

export const ServiceAccountsPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    const log = host.logger.child(PLUGIN_NAME);
    let settings: Settings | undefined;
    let discovery: IssuerDiscovery | undefined | null;
    const boundStores: BoundStores = {
      secrets: () => servedStore(host, '', 'v1', 'secrets'), nodes: () => servedStore(host, '', 'v1', 'nodes'), pods: () => servedStore(host, '', 'v1', 'pods'),
    };

    host.hooks.flags.tap(PLUGIN_NAME, (flags) => { for (const f of serviceAccountFlags) flags.define({ ...f, owner: PLUGIN_NAME }); });

    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      settings = settingsFrom((n) => cfg.flags.get(n), (n) => cfg.flags.isSet(n));
      if (!settings) { log.v(1).info('service account tokens disabled (no --service-account-issuer)'); return; }
      const s = settings;
      if (s.signingKeyId) {
        if (!s.keys.some((k) => keyId(k) === s.signingKeyId)) {
          log.warn('the service-account signing key is not among the verifying keys: tokens it issues will not authenticate here', { signingKeyFile: cfg.flags.get<string>(FLAG.signingKeyFile) });
        }
      }
      const serviceAccounts = () => servedStore(host, '', 'v1', 'serviceaccounts');
      // Upstream's two: legacy Secret-based tokens (issuer platform/serviceaccount, the controller
      // manager's tokens controller signs them with a key among --service-account-key-file's), then
      // bound ones. Each takes only its own issuer's tokens.
      const legacy = new ServiceAccountTokenAuthenticator({
        issuers: [LEGACY_ISSUER], keys: s.keys, apiAudiences: s.apiAudiences,
        legacy: new LegacyValidator({
          lookup: s.lookup, secrets: boundStores.secrets, serviceAccounts, logger: log,
          markUsed: async (secret, date) => {
            const store = boundStores.secrets();
            if (!store) return;
            const ctx = { user: SYSTEM_USER, namespace: secret.metadata.namespace ?? '', dryRun: false, warnings: [] };
            // With the Secret's uid, as upstream's patch carries it: a Secret made again meanwhile is not labelled.
            await store.update(ctx, secret.metadata.name ?? '', '', (cur) => (cur.metadata.uid !== secret.metadata.uid ? cur
              : { ...cur, metadata: { ...cur.metadata, labels: { ...cur.metadata.labels, [LAST_USED_LABEL]: date } } }));
          },
        }),
      });
      host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: SERVICE_ACCOUNT_TOKEN_STAGE }, (req) => legacy.authenticate(req));
      const authenticator = new ServiceAccountTokenAuthenticator({
        issuers: s.issuers, keys: s.keys, apiAudiences: s.apiAudiences,
        // Always: upstream's bound-token validator gets its getter whatever --service-account-lookup
        // says (the flag governs only the legacy Secret-based tokens above), so deleting an account
        // or the object a token is bound to revokes the token.
        lookup: { ...boundStores, serviceAccounts },
      });
      host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: SERVICE_ACCOUNT_TOKEN_STAGE }, (req) => authenticator.authenticate(req));
      // The server's, not only these tokens': every token authenticator and TokenReview read them.
      setApiAudiences(host, s.apiAudiences);
      tokenAuthenticationEnabled(host);
      const problem = issuerDiscoveryProblem(s.issuers[0]!);
      if (problem) log.error(`service account issuer discovery endpoints are not enabled: ${problem}`);
      log.info('service account tokens enabled', {
        issuers: s.issuers, apiAudiences: s.apiAudiences, keys: s.keys.length, tokenRequest: s.signer !== undefined, lookup: s.lookup,
      });
    });

    /** Rendered on first use, once the server knows its external address. */
    const issuerDiscovery = (): IssuerDiscovery | undefined => {
      if (discovery !== undefined) return discovery ?? undefined;
      const s = settings;
      if (!s || issuerDiscoveryProblem(s.issuers[0]!)) { discovery = null; return undefined; }
      const external = servedExternalAddress(host);
      if (!s.jwksUri && !external) return undefined;
      discovery = renderIssuerDiscovery({ issuer: s.issuers[0]!, jwksUri: s.jwksUri ?? `https://${external}${JWKS_PATH}`, keys: s.keys });
      return discovery;
    };

    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      registry.register(serviceAccountResource([{
        name: 'token',
        create: tokenSubresource({ signer: () => settings?.signer, stores: boundStores, nodeBinding: () => host.featureGates.enabled(NODE_BINDING_GATE) }),
      }]));
      registry.registerPath({
        path: DISCOVERY_PATH,
        get: () => { const d = issuerDiscovery(); return d && { contentType: 'application/json', body: d.configuration, headers: discoveryHeaders }; },
      });
      registry.registerPath({
        path: JWKS_PATH,
        get: () => { const d = issuerDiscovery(); return d && { contentType: JWKS_CONTENT_TYPE, body: d.jwks, headers: discoveryHeaders }; },
      });
    });
  },
};
