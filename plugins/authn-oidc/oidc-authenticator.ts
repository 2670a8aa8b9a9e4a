// OidcAuthenticator: JWT bearer tokens from OIDC issuers, configured by the --oidc-* flags or by
// the `jwt` section of --authentication-config (never both). A token is routed by its unverified
// `iss` to the one authenticator of that issuer; a token of no configured issuer is left to the
// other authenticators (no opinion; if none takes it, core's bearer-token step refuses it), and one of a configured issuer that fails any check is
// rejected (401), the reason logged by the server and never the token. A file is watched while the
// server runs (config-reload.ts): each request uses the set of authenticators serving when it came.
import { goTokenText, requestToken } from '../../core/authn/bearer.js';
import { rejectToken, tokenAuthenticationEnabled } from '../../core/authn/token-authentication.js';
import { authenticateAudienceAgnostic } from '../../core/authn/api-audiences.js';
import { JOSE_ALGORITHMS, peekPayload, type JoseAlgorithm } from '../../core/authn/jwt.js';
import type { UserInfo } from '../../core/authn/user.js';
import {
  AUTHENTICATION_CONFIG_FLAG, AuthenticationConfigError, invalidConfigurationMessage, parseAuthenticationConfiguration,
  loadFailure, validateAuthenticationConfiguration, type AuthenticationConfiguration, type JWTAuthenticator,
} from '../../core/authn/authentication-config/index.js';
import { readFileSync } from 'node:fs';
import { osErrorText } from '../../core/go-os-error.js';
import { servingApiserverMetrics } from '../../core/metrics/apiserver.js';
import { apiserverIdentity } from '../../core/metrics/apiserver-config-reload.js';
import { AuthenticationConfigReloader, type ReloadTimings } from './config-reload.js';
import { JwtSet } from './jwt-set.js';
import { fieldError } from '../../core/api/field-errors.js';
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { StartupError } from '../../core/plugin.js';
import { CelCompiler } from './cel.js';
import {
  OIDC_CLIENT_ID_FLAG, OIDC_FLAGS, OIDC_ISSUER_URL_FLAG, OIDC_SIGNING_ALGS_FLAG, OidcFlagError, jwtAuthenticatorFromFlags, oidcFlagsSet,
} from './flags.js';
import type { FetchJson } from './https-get.js';
import { untrustedIssuer } from './id-token.js';
import { GOOGLE_ISSUER, GOOGLE_ISSUER_NO_SCHEME, OidcError } from './jwt-authenticator.js';

const PLUGIN_NAME = 'OidcAuthenticator';
const SECTION = 'Authentication options';
/** After the static token file (0) and bootstrap tokens (5), before the token webhook (10), as upstream orders them. */
export const OIDC_STAGE = 8;

export interface OidcAuthenticatorDeps extends ReloadTimings {
  /** Clock for token times and the refresh limiter, milliseconds since the epoch. */
  readonly now?: () => number;
  /** Replaces HTTPS fetching (tests). */
  readonly fetchJson?: (issuer: JWTAuthenticator['issuer']) => FetchJson;
  readonly refreshBurst?: number;
  readonly refreshIntervalMs?: number;
  readonly retryDelaysMs?: readonly number[];
}

export const FLAGS_MUST_GO_TOGETHER = 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set';
export const FILE_AND_FLAGS_EXCLUSIVE = 'authentication-config file and oidc-* flags are mutually exclusive';
export const STRUCTURED_AUTHN_OFF = 'set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file';

/** What start-up resolved: the authenticators, their algorithms, and the file's part in them. */
export interface ResolvedJwtAuthenticators {
  readonly authenticators: readonly JWTAuthenticator[];
  readonly algs: readonly JoseAlgorithm[];
  /** Set when the authenticators come from --authentication-config (its `jwt`, or none): then it is watched. */
  readonly fromFile?: { readonly file: string; readonly bytes: Buffer; readonly config: AuthenticationConfiguration };
}

/**
 * Start-up's checks of a decoded file, which a reload runs again: upstream's validation (the
 * service account issuers may not be JWT issuers) and plat's refusal of egress selection.
 */
export function checkFileConfiguration(flags: FlagSet, compiler: CelCompiler, jwt: readonly JWTAuthenticator[], anonymous: AuthenticationConfiguration['anonymous']) {
  const disallowed = flags.has('service-account-issuer') ? (flags.get<string[] | undefined>('service-account-issuer') ?? []) : [];
  const errs = validateAuthenticationConfiguration(compiler, { jwt, hasJwt: true, ...(anonymous ? { anonymous } : {}) }, disallowed);
  jwt.forEach((a, i) => {
    if (a.issuer.egressSelectorType) {
      errs.push(fieldError.invalid(`jwt[${i}].issuer.egressSelectorType`, a.issuer.egressSelectorType, 'egress selection is not supported by plat'));
    }
  });
  return errs;
}

/** The JWT authenticators a configuration asks for, with their signing algorithms; throws StartupError. */
export function resolveJwtAuthenticators(flags: FlagSet, compiler: CelCompiler, structuredAuthentication = true): ResolvedJwtAuthenticators {
  const file = flags.get<string>(AUTHENTICATION_CONFIG_FLAG);
  let fromFile: AuthenticationConfiguration | undefined;
  let bytes: Buffer | undefined;
  // Upstream's options validation, before the file is read.
  if (file && !structuredAuthentication) throw new StartupError(STRUCTURED_AUTHN_OFF);
  if (file) {
    try {
      try {
        bytes = readFileSync(file);
      } catch (err) {
        throw new AuthenticationConfigError(osErrorText('open', file, err));
      }
      fromFile = parseAuthenticationConfiguration(bytes.toString('utf8'));
    } catch (err) {
      if (err instanceof AuthenticationConfigError) throw new StartupError(loadFailure(file, err));
      throw err;
    }
  }
  const flagsSet = oidcFlagsSet(flags);
  const useFile = fromFile?.hasJwt === true;
  if (useFile && flagsSet) throw new StartupError(FILE_AND_FLAGS_EXCLUSIVE);
  if (!useFile && flagsSet && (!flags.get<string>(OIDC_ISSUER_URL_FLAG) || !flags.get<string>(OIDC_CLIENT_ID_FLAG))) {
    throw new StartupError(FLAGS_MUST_GO_TOGETHER);
  }
  let jwt: readonly JWTAuthenticator[] = fromFile?.jwt ?? [];
  if (!useFile && flagsSet) {
    try {
      jwt = [jwtAuthenticatorFromFlags(flags)];
    } catch (err) {
      if (err instanceof OidcFlagError) throw new StartupError(err.message);
      throw err;
    }
  }
  const errs = checkFileConfiguration(flags, compiler, jwt, fromFile?.anonymous);
  if (errs.length) throw new StartupError(invalidConfigurationMessage(errs, useFile || !flagsSet ? file || undefined : undefined));
  // The file allows every algorithm a key can have; the flags only those listed.
  const algs = useFile ? JOSE_ALGORITHMS : (flags.get<string[]>(OIDC_SIGNING_ALGS_FLAG) as JoseAlgorithm[]);
  // With the flags, the file (an anonymous section only) adds no JWT authenticator a reload could change.
  return { authenticators: jwt, algs, ...(file && fromFile && bytes && !flagsSet ? { fromFile: { file, bytes, config: fromFile } } : {}) };
}

/**
 * Upstream's untrustedIssuer: the unverified `iss` as encoding/json finds it (key case folded,
 * null empty, another type no issuer), Google's legacy scheme-less one coalesced.
 */
export function routingIssuer(token: string): string | undefined {
  const payload = peekPayload(token);
  const iss = payload === undefined || token.trimStart().startsWith('{') ? undefined : untrustedIssuer(payload);
  return iss === GOOGLE_ISSUER_NO_SCHEME ? GOOGLE_ISSUER : iss;
}

export function createOidcAuthenticator(deps: OidcAuthenticatorDeps = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      const log = host.logger.child(PLUGIN_NAME);
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
        flags.define({
          name: AUTHENTICATION_CONFIG_FLAG, type: 'string', section: SECTION, owner: PLUGIN_NAME,
          help: 'Authentication configuration file (JWT and anonymous authenticators); requires feature gate StructuredAuthenticationConfiguration. Mutually exclusive with the --oidc-* options if the file configures the JWT authenticator, and with --anonymous-auth if it configures the anonymous authenticator.',
        });
        for (const f of OIDC_FLAGS) flags.define({ ...f, owner: PLUGIN_NAME });
      });

      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const compiler = new CelCompiler();
        const resolved = resolveJwtAuthenticators(cfg.flags, compiler, host.featureGates.enabled('StructuredAuthenticationConfiguration'));
        const { authenticators, algs, fromFile } = resolved;
        // As upstream, a file makes a JWT authenticator even with no `jwt` entries: a reload may add some.
        if (authenticators.length === 0 && !fromFile) return;
        const initial = new JwtSet(authenticators, algs, compiler, log, deps);
        log.info('JWT authentication enabled', { issuers: [...initial.byIssuer.keys()], source: cfg.flags.get<string>(AUTHENTICATION_CONFIG_FLAG) || 'flags' });

        let current = () => initial;
        let start = () => { void initial.start(); };
        let stop = () => initial.stop();
        if (fromFile) {
          const reloader = new AuthenticationConfigReloader({
            ...deps,
            file: fromFile.file,
            initial: { bytes: fromFile.bytes, set: initial, anonymous: fromFile.config.anonymous },
            validate: (c) => checkFileConfiguration(cfg.flags, compiler, c.jwt, c.anonymous),
            build: (c) => new JwtSet(c.jwt, JOSE_ALGORITHMS, compiler, log, deps),
            log,
            record: (status) => servingApiserverMetrics(host)?.authenticationConfig.record(status, apiserverIdentity()),
          });
          current = () => reloader.current();
          start = () => { void initial.start(); reloader.start(); };
          stop = () => reloader.stop();
          reloaders.set(host, reloader);
        }
        // Discovery runs in the background: start-up neither waits for nor fails on an issuer.
        host.hooks.start.tap(PLUGIN_NAME, () => start());
        host.hooks.shutdown.tap(PLUGIN_NAME, () => stop());

        tokenAuthenticationEnabled(host);
        host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: OIDC_STAGE }, async (req): Promise<UserInfo | undefined> => {
          const token = requestToken(req);
          if (token === undefined) return undefined;
          const iss = routingIssuer(token);
          // The set serving when the request arrived; a reload swaps in a new one for later requests.
          const authenticator = iss === undefined ? undefined : current().byIssuer.get(iss);
          if (authenticator === undefined) return undefined;
          // Audience-agnostic, as upstream wraps the JWT authenticators (WrapAudienceAgnosticToken).
          return authenticateAudienceAgnostic(host, req, async () => {
            try {
              return await authenticator.authenticate(goTokenText(req, token));
            } catch (err) {
              if (!(err instanceof OidcError)) throw err;
              log.v(2).info('token refused', { issuer: authenticator.issuerUrl, path: req.path, error: err.message });
              rejectToken(req, err.message);
              return undefined;
            }
          });
        });
      });
    },
  };
}

export const OidcAuthenticator: Plugin = createOidcAuthenticator();

const reloaders = new WeakMap<Host, AuthenticationConfigReloader>();
/** The host's --authentication-config reloader, when the file is watched (tests re-read it at once). */
export const authenticationConfigReloader = (host: Host): AuthenticationConfigReloader | undefined => reloaders.get(host);
