// RequestHeaderAuthenticator: --requestheader-*. A front proxy that authenticated the user itself
// passes the identity on in headers (X-Remote-User, X-Remote-Group, X-Remote-Extra-*); those
// headers are believed only on a connection whose client certificate verifies against
// --requestheader-client-ca-file (a bundle separate from --client-ca-file) and, when
// --requestheader-allowed-names is set, whose CommonName is listed. Everyone else's identity
// headers are never read. The CA file is watched (upstream's "request-header::<file>" content): a
// changed, usable bundle verifies from the next request on; an unusable change is logged and the
// current bundle kept.
//
// Ordered as upstream's union: first (stage -10), before X509Authenticator, so a proxy's own
// certificate is not taken for the user. As upstream, a presented certificate that does not verify
// against this CA, or whose CN is not allowed, is an error of this authenticator (req.reject):
// the authenticate hook bails on the first user, so an ordinary client certificate or token
// accepted by a later authenticator still wins, and only a request nobody accepts ends in 401
// instead of anonymous (upstream's union + FailOnError before anonymous).
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { AuthenticationRequest, UserInfo } from '../../core/authn/user.js';
import type { Logger } from '../../core/log.js';
import { parseCaBundle, type Certificate } from '../../core/authn/x509/index.js';
import { watchCaFile, type DynamicOptions } from '../../core/tls/dynamic-content.js';
import type { WatchedFiles } from '../../core/tls/watched-files.js';
import {
  authenticateFrontProxy, headerNamesFromFlags, noBlankEntries, readRequestHeaderCa, REQUESTHEADER_FLAG_NAMES,
  warnNonStandardHeaders, type RequestHeaderSettings,
} from '../../core/authn/request-header.js';
import { loadProxyClientCredentials, setProxyClientCredentials } from './proxy-client.js';

const PLUGIN_NAME = 'RequestHeaderAuthenticator';
const SECTION = 'Authentication options';

export const REQUESTHEADER_FLAGS = {
  ...REQUESTHEADER_FLAG_NAMES,
  proxyClientCertFile: 'proxy-client-cert-file',
  proxyClientKeyFile: 'proxy-client-key-file',
} as const;

/** Before X509Authenticator (stage 0): upstream puts the front proxy first in the union. */
export const REQUESTHEADER_STAGE = -10;

export interface RequestHeaderAuthenticatorOptions extends DynamicOptions {
  /** Clock for certificate validity; tests inject one. */
  readonly now?: () => Date;
}

export function createRequestHeaderAuthenticator(options: RequestHeaderAuthenticatorOptions = {}): Plugin {
  const now = options.now ?? (() => new Date());
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      const log = host.logger.child(PLUGIN_NAME);
      let watched: WatchedFiles<readonly Certificate[]> | undefined;
      host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
        const list = (name: string, help: string) => flags.define({
          name, type: 'strings', help, section: SECTION, owner: PLUGIN_NAME, validate: noBlankEntries(name),
        });
        const file = (name: string, help: string) => flags.define({ name, type: 'string', help, section: SECTION, owner: PLUGIN_NAME });
        file(REQUESTHEADER_FLAGS.clientCaFile, 'Root bundle verifying client certificates before trusting identity headers.');
        list(REQUESTHEADER_FLAGS.allowedNames, 'Certificate common names allowed to supply identity headers; empty allows any certificate validated by the CA file.');
        list(REQUESTHEADER_FLAGS.usernameHeaders, 'Headers inspected for usernames (`X-Remote-User` is common).');
        list(REQUESTHEADER_FLAGS.groupHeaders, 'Headers inspected for groups (`X-Remote-Group` suggested).');
        list(REQUESTHEADER_FLAGS.extraHeadersPrefix, 'Header prefixes inspected (`X-Remote-Extra-` suggested).');
        list(REQUESTHEADER_FLAGS.uidHeaders, 'Headers inspected for UIDs (`X-Remote-Uid` suggested); requires feature RemoteRequestHeaderUID.');
        file(REQUESTHEADER_FLAGS.proxyClientCertFile, 'Client certificate proving the identity of the aggregator or API server when it calls out (proxying to extension servers, webhook admission); expected to be signed by the CA in --requestheader-client-ca-file.');
        file(REQUESTHEADER_FLAGS.proxyClientKeyFile, 'Private key of that certificate.');
      });
      host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
        const names = headerNamesFromFlags(cfg.flags);
        const allowedNames = cfg.flags.get<string[]>(REQUESTHEADER_FLAGS.allowedNames);
        warnNonStandardHeaders(names, log);

        const proxy = loadProxyClientCredentials(
          cfg.flags.get<string>(REQUESTHEADER_FLAGS.proxyClientCertFile),
          cfg.flags.get<string>(REQUESTHEADER_FLAGS.proxyClientKeyFile),
        );
        if (proxy) {
          setProxyClientCredentials(host, proxy);
          log.info('proxy client certificate loaded', { subject: proxy.certificate.subject.replace(/\n/g, ', '), notAfter: proxy.certificate.validTo });
        }

        const caFile = cfg.flags.get<string>(REQUESTHEADER_FLAGS.clientCaFile);
        if (!caFile) return;
        const bundle = watched = watchCaFile<readonly Certificate[]>('request-header', caFile, () => readRequestHeaderCa(caFile),
          (b) => parseCaBundle(b.toString('latin1'), ''), log, options);
        const roots = bundle.current();
        if (proxy && !roots.some((r) => proxy.certificate.checkIssued(r.x509))) {
          log.warn('the proxy client certificate is not issued by a certificate of --requestheader-client-ca-file; servers trusting that bundle will not accept it',
            { file: REQUESTHEADER_FLAGS.proxyClientCertFile });
        }
        if (names.username.length === 0) {
          // Upstream builds the authenticator anyway; without a username header it never finds a user.
          log.warn('--requestheader-client-ca-file is set without --requestheader-username-headers: no request can be authenticated by request headers');
        }
        log.info('request-header authentication enabled', {
          file: caFile, authorities: roots.length, allowedNames: allowedNames.length ? allowedNames.join(',') : '(any)',
        });
        host.hooks.authenticate.tap({ name: PLUGIN_NAME, stage: REQUESTHEADER_STAGE }, (req) =>
          authenticate(req, { roots: bundle.current(), allowedNames, names }, now(), log));
        host.hooks.clientAuthorities.tap(PLUGIN_NAME, (authorities) => authorities.add(bundle));
      });
      host.hooks.start.tap(PLUGIN_NAME, () => watched?.start());
      host.hooks.shutdown.tap(PLUGIN_NAME, () => watched?.stop());
    },
  };
}

export const RequestHeaderAuthenticator: Plugin = createRequestHeaderAuthenticator();

function authenticate(req: AuthenticationRequest, s: RequestHeaderSettings, now: Date, log: Logger): UserInfo | undefined {
  const outcome = authenticateFrontProxy(req.peerChain, req, s, now);
  if (outcome.result === 'reject') {
    log.v(4).info('client certificate is not an allowed front proxy certificate', { reason: outcome.reason });
    req.reject(outcome.reason);
    return undefined;
  }
  if (outcome.result === 'none') return undefined;
  // The identity headers cannot be removed here (the request is read-only to authenticators);
  // nothing downstream in plat forwards request headers, so they go no further.
  log.v(4).info('authenticated by front proxy', { proxy: outcome.proxy, user: outcome.user.name });
  return outcome.user;
}
