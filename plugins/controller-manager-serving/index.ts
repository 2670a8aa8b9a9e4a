// ControllerManagerServing: the controller manager's own HTTPS endpoint (--secure-port 10257, 0
// disables it) serving the component's health checks, /metrics and /configz, with upstream's delegated authentication
// (a front proxy's identity headers under --requestheader-* or the looked-up settings, client
// certificates of --client-ca-file or the looked-up CA, TokenReview through
// --authentication-kubeconfig, else anonymous) and authorization (system:masters, the
// always-allow paths, SubjectAccessReview through --authorization-kubeconfig, else forbidden).
// Taps flags, configure (settings and files checked), start (look-up, TLS, listen) and shutdown.
// Not part of `plat all`: there the API server's own endpoint is the only one.
import path from 'node:path';
import type { ClientConnection } from '../../core/client/connection.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import { defaultUserAgent } from '../../core/client/user-agent.js';
import { RestClient } from '../../core/client/rest-client.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { Logger } from '../../core/log.js';
import { ensureSelfSignedServing, generateSelfSignedServing, selfSignedServingLines } from '../../core/pki/index.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { componentHealthChecks } from '../../core/server/health.js';
import { componentConfigz } from '../../core/server/configz.js';
import { listen, type RunningServer } from '../../core/server/listen.js';
import { isUnspecified, joinHostPort, listenOnBindAddress } from '../../core/server/bind-address.js';
import { createEndpointApp } from './app.js';
import { HTTP2_DOS_MITIGATION_GATE } from '../../core/server/http2-dos-mitigation.js';
import { lookupMissing, parseCaBundle, readClientCaFile, warnNoLookupClient } from './in-cluster-lookup.js';
import {
  headerNamesFromFlags, readRequestHeaderCa, REQUESTHEADER_FLAG_NAMES, warnNonStandardHeaders, type RequestHeaderSettings,
} from '../../core/authn/request-header.js';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { uniqueCertificatesPem } from '../../core/authn/client-authorities.js';
import { DelegatedAuthorizer, SubjectAccessReviewer } from './delegated-authorization.js';
import { alwaysAllowPathsProblem, FLAGS, servingFlags } from './flags.js';
import { servingTlsSettings } from '../../core/server/tls-settings.js';
import { SNI_FLAG, SniCertificates } from '../../core/server/sni.js';
import type { CertKeyPem } from '../../core/server/serving-pair.js';
import { parseCaBundle as parseRoots, type Certificate } from '../../core/authn/x509/index.js';
import { derived, fixed, type Changing } from '../../core/tls/changing.js';
import { watchCaFile, watchServingFiles, watchServingPair } from '../../core/tls/dynamic-content.js';
import { WatchedFiles } from '../../core/tls/watched-files.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import { listenErrorText } from './listen-error.js';
import { TokenReviewer } from '../../core/authn/token-review-client.js';
import { PROFILING_FLAG, profilingFlags, v8Profiler } from '../../core/server/debug/index.js';
import { componentMetrics } from '../../core/metrics/component.js';
import { metricsFlags, metricsSettingsFromFlags } from '../../core/metrics/flags.js';
import { restClientMetrics } from '../../core/metrics/rest-client.js';
import { versionInfo } from '../../core/version.js';
import { checkSecurePort } from '../../core/server/secure-port.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';

const PLUGIN_NAME = 'ControllerManagerServing';
/** Upstream's PairName for the self-signed pair in --cert-dir. */
const PAIR_NAME = 'plat-controller-manager';
/** What its API clients' agent starts with (upstream: the binary's name). */
const COMPONENT = 'plat-controller-manager';

export interface ServingHandle {
  readonly server: RunningServer;
  /** https://host:port a local client reaches the endpoint at. */
  readonly url: string;
}

const handles = new WeakMap<Host, ServingHandle>();
/** The controller manager's running endpoint (after `start`), for tests. */
export const getControllerManagerServing = (host: Host): ServingHandle | undefined => handles.get(host);


function kubeconfigFor(flag: string, file: string): ClientConnection {
  try {
    const conn = loadKubeconfig(file);
    if (conn.server.protocol !== 'https:') throw new KubeconfigError('cluster.server: plat talks to the API server over https only');
    return conn;
  } catch (e) {
    // Named by its flag and file, then in upstream's words (Delegating*Options.getClient's wrapper).
    const which = flag === FLAGS.authnKubeconfig ? 'authentication' : 'authorization';
    if (e instanceof KubeconfigError) throw new StartupError(`--${flag}=${file}: failed to get delegated ${which} kubeconfig: ${e.message}`, 1);
    throw e;
  }
}

/**
 * The files below are read and checked at start-up, then watched from `start` (upstream's
 * "serving-cert", "client-ca-bundle" and "request-header" dynamic contents).
 */
interface Settings {
  readonly port: number;
  readonly bind: string;
  /** --tls-cert-file/--tls-private-key-file. */
  readonly pair?: WatchedFiles<CertKeyPem>;
  /** --client-ca-file's bundle (PEM). */
  readonly clientCa?: WatchedFiles<string>;
  /** --requestheader-client-ca-file's roots. */
  readonly requestHeaderRoots?: WatchedFiles<readonly Certificate[]>;
  readonly requestHeader?: Omit<RequestHeaderSettings, 'roots'>;
  readonly authn?: ClientConnection;
  readonly authz?: ClientConnection;
}

function readSettings(flags: FlagSet, log: Logger): Settings {
  const certFile = flags.get<string>(FLAGS.tlsCertFile);
  const keyFile = flags.get<string>(FLAGS.tlsKeyFile);
  const port = flags.get<number>(FLAGS.securePort);
  // SecureServingOptions.ApplyTo, which returns at once without a port, then reads the pair
  // through NewDynamicServingContentFromFiles: half a pair is its error, not an options error.
  if (port !== 0 && Boolean(certFile) !== Boolean(keyFile)) throw new StartupError('missing filename for serving cert', 2);
  // Without an endpoint the pair is not used, and upstream does not load it.
  const pair = certFile && port !== 0
    ? watchServingFiles({ name: `--${FLAGS.tlsCertFile}`, path: certFile }, { name: `--${FLAGS.tlsKeyFile}`, path: keyFile }, log)
    : undefined;
  // Nor the authentication and authorization settings: upstream applies them only with a port.
  if (port === 0) return { port, bind: flags.get<string>(FLAGS.bindAddress) };
  const badPath = alwaysAllowPathsProblem(flags.get<string[]>(FLAGS.authzAlwaysAllowPaths));
  if (badPath !== undefined) throw new StartupError(badPath, 2);
  const authnFile = flags.get<string>(FLAGS.authnKubeconfig);
  const authzFile = flags.get<string>(FLAGS.authzKubeconfig);
  const clientCaFile = flags.get<string>(FLAGS.clientCaFile);
  let clientCa: WatchedFiles<string> | undefined;
  if (clientCaFile) {
    try {
      clientCa = watchCaFile('client-ca-bundle', clientCaFile, () => readClientCaFile(clientCaFile), (bundle) => {
        const pem = parseCaBundle(bundle.toString('utf8'));
        parseRoots(pem, '');
        return pem;
      }, log);
    } catch (e) {
      throw new StartupError((e as Error).message, 1);
    }
  }
  const requestHeader = requestHeaderFromFlags(flags);
  const rhFile = flags.get<string>(REQUESTHEADER_FLAG_NAMES.clientCaFile);
  const requestHeaderRoots = requestHeader && rhFile
    ? watchCaFile<readonly Certificate[]>('request-header', rhFile, () => requestHeader.roots, (b) => parseRoots(b.toString('latin1'), ''), log)
    : undefined;
  return {
    port,
    bind: flags.get<string>(FLAGS.bindAddress),
    ...(pair ? { pair } : {}),
    ...(clientCa ? { clientCa } : {}),
    ...(requestHeader ? { requestHeader } : {}),
    ...(requestHeaderRoots ? { requestHeaderRoots } : {}),
    ...(authnFile ? { authn: kubeconfigFor(FLAGS.authnKubeconfig, authnFile) } : {}),
    ...(authzFile ? { authz: kubeconfigFor(FLAGS.authzKubeconfig, authzFile) } : {}),
  };
}

/** --requestheader-*: set only when the CA file is given (without it the other flags are unused, as upstream). */
function requestHeaderFromFlags(flags: FlagSet): RequestHeaderSettings | undefined {
  const file = flags.get<string>(REQUESTHEADER_FLAG_NAMES.clientCaFile);
  if (!file) return undefined;
  return {
    // DelegatingAuthenticationOptions.ApplyTo's wrapper.
    roots: readRequestHeaderCa(file, 'unable to create request header authentication config: '),
    allowedNames: flags.get<string[]>(REQUESTHEADER_FLAG_NAMES.allowedNames).map((v) => v.trim()),
    names: headerNamesFromFlags(flags),
  };
}

export const ControllerManagerServing: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    const log = host.logger.child('controller-manager-serving');
    let flags: FlagSet | undefined;
    let settings: Settings | undefined;
    const cleanups: (() => Promise<void> | void)[] = [];

    host.hooks.flags.tap(PLUGIN_NAME, (f) => {
      for (const spec of servingFlags) f.define({ ...spec, owner: PLUGIN_NAME });
      for (const spec of profilingFlags('Leader election and process', {
        profiling: 'Profiling at `host:port/debug/pprof/`.',
        contention: 'Block profiling when profiling is on.',
      })) f.define({ ...spec, owner: PLUGIN_NAME });
      for (const spec of metricsFlags('Leader election and process')) f.define({ ...spec, owner: PLUGIN_NAME });
    });

    // SecureServingOptions.Validate, with the other plugins' options checks (core/options-validation.ts).
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.serving }, (cfg) => checkSecurePort(cfg.flags, false));

    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      flags = cfg.flags;
      const { major, minor } = versionInfo(host.version);
      // Before anything records: the allow-lists apply when a series is first looked up.
      componentMetrics(host).configure(metricsSettingsFromFlags(flags, `${major}.${minor}`, (m) => log.error(m)));
      // RequestHeaderAuthenticationOptions.Validate: about the flags' names, with or without a
      // port or CA file; names a ConfigMap publishes are not checked.
      warnNonStandardHeaders(headerNamesFromFlags(flags), log);
      settings = readSettings(flags, log);
      if (settings.port === 0) log.info('secure serving is off (--secure-port=0)');
    });

    host.hooks.start.tapPromise(PLUGIN_NAME, async ({ signal }) => {
      const f = flags!;
      const s = settings!;
      if (s.port === 0) return;
      // As client-go's process-wide metrics: the endpoint's own lookups and reviews count too.
      // The delegated authentication and authorization clients (and the lookup's) set no agent of
      // their own upstream: rest.DefaultKubernetesUserAgent's, with no `/<name>`.
      const clientOptions = { userAgent: defaultUserAgent(COMPONENT, host.version, host.gitVersion), metrics: restClientMetrics(componentMetrics(host)) };

      let clientCa: Changing<string> | undefined = s.clientCa;
      let requestHeader: Changing<RequestHeaderSettings> | undefined = s.requestHeader && s.requestHeaderRoots
        ? withRoots(s.requestHeader, s.requestHeaderRoots) : undefined;
      for (const w of [s.pair, s.clientCa, s.requestHeaderRoots]) {
        if (!w) continue;
        w.start();
        cleanups.push(() => w.stop());
      }
      const missing = { clientCa: !clientCa, requestHeader: !requestHeader };
      if ((missing.clientCa || missing.requestHeader) && !f.get<boolean>(FLAGS.authnSkipLookup)) {
        if (!s.authn) {
          warnNoLookupClient(missing, log);
        } else {
          const client = new RestClient(s.authn, clientOptions);
          try {
            const found = await lookupMissing(client, missing, log, signal);
            if (found.clientCa) clientCa ??= fixed(found.clientCa);
            if (found.requestHeader) requestHeader ??= fixed(found.requestHeader);
          } catch (e) {
            // Stopped (SIGTERM) while the API server did not answer: neither a failed lookup nor,
            // with --authentication-tolerate-lookup-failure, a reason to go on and listen; the
            // abort itself is said as the stop.
            if (signal.aborted) throw signal.reason;
            // client-go's error text (`Get "<url>": dial tcp ...`), as upstream's messages carry it.
            const why = goClientErrorText(e);
            if (!f.get<boolean>(FLAGS.authnTolerateLookupFailure)) throw new StartupError(`unable to load configmap based request-header-client-ca-file: ${why}`, 1);
            log.warn(`Error looking up in-cluster authentication configuration: ${why}`);
            log.warn('Continuing without authentication configuration. This may treat all requests as anonymous.');
            log.warn('To require authentication configuration lookup to succeed, set --authentication-tolerate-lookup-failure=false');
          } finally {
            client.close();
          }
        }
      }

      // Upstream raises the delegating client's limits (qps 200, burst 400): they bound every request.
      const reviewClient = s.authn ? new RestClient(s.authn, { ...clientOptions, qps: 200, burst: 400 }) : undefined;
      const tokens = reviewClient ? new TokenReviewer(() => reviewClient, f.get<number>(FLAGS.authnCacheTtl), Date.now, log) : undefined;
      if (reviewClient) cleanups.push(() => reviewClient.close());
      const reviews = s.authz
        ? new SubjectAccessReviewer(s.authz, { allowedMs: f.get<number>(FLAGS.authzAllowedTtl), deniedMs: f.get<number>(FLAGS.authzDeniedTtl) }, clientOptions, log)
        : undefined;
      if (reviews) cleanups.push(() => reviews.close());
      else log.warn('No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won\'t work.');

      const profiling = f.get<boolean>(PROFILING_FLAG);
      if (profiling) {
        // Heap sampling runs from start-up, so /debug/pprof/heap covers what is alive since then.
        await v8Profiler.acquire();
        cleanups.push(() => v8Profiler.release());
      }
      const stopping = new AbortController();

      const health = componentHealthChecks(host);
      const app = createEndpointApp({
        authenticator: new DelegatingAuthenticator({
          ...(clientCa ? { clientCa } : {}), ...(requestHeader ? { requestHeader } : {}), ...(tokens ? { tokens } : {}), anonymous: true,
        }),
        authorizer: new DelegatedAuthorizer(f.get<string[]>(FLAGS.authzAlwaysAllowPaths), reviews),
        health, metrics: componentMetrics(host), configz: componentConfigz(host), logger: log,
        http2Mitigation: host.featureGates.enabled(HTTP2_DOS_MITIGATION_GATE), ...(profiling ? { debug: { shutdown: stopping.signal } } : {}),
      });

      const own = s.pair ? undefined : await selfSignedPair(f, s.bind, log);
      if (own instanceof WatchedFiles) {
        own.start();
        cleanups.push(() => own.stop());
      }
      const pair = s.pair ?? own!;
      const tlsSettings = servingTlsSettings(f.get<string>(FLAGS.tlsMinVersion), f.get<string[]>(FLAGS.tlsCipherSuites), log, f.get<boolean>(FLAGS.disableHttp2));
      const sni = SniCertificates.watch(f.get<string[]>(SNI_FLAG), log);
      sni.start();
      cleanups.push(() => sni.stop());
      const maxStreams = f.get<number>(FLAGS.http2MaxStreams);
      // Both bundles are offered to clients as acceptable issuers (upstream's union of the client
      // and request-header CAs); each authenticator verifies against its own bundle. Rebuilt, as
      // upstream's DynamicServingCertificateController, when any of its parts changes.
      const cas = [clientCa, requestHeader].filter((c) => c !== undefined);
      const tls = derived([pair, ...cas], () => ({
        ...pair.current(), ciphers: tlsSettings.ciphers,
        ...(clientCa || requestHeader
          ? { ca: uniqueCertificatesPem([clientCa?.current() ?? '', ...(requestHeader?.current().roots ?? []).map((r) => r.x509.toString())]) } : {}),
      }));
      // Nothing of the above waits on the API server, but a stop that came meanwhile must not open the port.
      if (signal.aborted) throw signal.reason;
      let server: RunningServer;
      try {
        server = await listenOnBindAddress(s.bind, (host) => listen(app, {
          host, port: s.port, http2: !f.get<boolean>(FLAGS.disableHttp2),
          tls,
          // Go's server asks for a certificate only when it has a CA to check it against.
          requestCert: Boolean(clientCa || requestHeader),
          minVersion: tlsSettings.minVersion, sni, ...(maxStreams ? { maxStreamsPerConnection: maxStreams } : {}), log,
        }));
      } catch (e) {
        throw new StartupError(listenErrorText(joinHostPort(s.bind || '0.0.0.0', s.port), e));
      }
      // Upstream serves with a shutdown timeout of 0: listener and idle connections closed, the
      // rest not waited for.
      cleanups.unshift(async () => { await server.close(0); });
      // First of all: a CPU profile being taken ends at once instead of holding the stop up.
      cleanups.unshift(() => stopping.abort());
      const local = isUnspecified(s.bind) ? '127.0.0.1' : s.bind.includes(':') ? `[${s.bind}]` : s.bind;
      handles.set(host, { server, url: `https://${local}:${server.address.port}` });
      log.info(`Serving securely on ${joinHostPort(server.address.address, server.address.port)}`, {
        clientCertificates: clientCa !== undefined, requestHeader: requestHeader !== undefined, tokenReview: tokens !== undefined, subjectAccessReview: reviews !== undefined,
      });
    });

    host.hooks.shutdown.tapPromise(PLUGIN_NAME, async () => {
      for (const c of cleanups.splice(0)) await c();
    });
  },
};

/** The request-header settings with the roots of a watched file. */
function withRoots(settings: Omit<RequestHeaderSettings, 'roots'>, roots: Changing<readonly Certificate[]>): Changing<RequestHeaderSettings> {
  return derived([roots], () => ({ ...settings, roots: roots.current() }));
}

/**
 * Without --tls-cert-file: a self-signed pair, kept in --cert-dir, or in memory without one. As
 * kube-controller-manager's MaybeDefaultWithSelfSignedCerts("localhost", ...): named localhost@<unix
 * time>, valid for localhost, 127.0.0.1 and a specific bind address. The files in --cert-dir,
 * generated or found there, are then watched as --tls-cert-file's (upstream's ApplyTo reads them
 * through NewDynamicServingContentFromFiles).
 */
async function selfSignedPair(flags: FlagSet, bind: string, log: Logger): Promise<Changing<CertKeyPem> | WatchedFiles<CertKeyPem>> {
  const hosts = isUnspecified(bind) ? [] : [bind];
  const certDir = flags.get<string>(FLAGS.certDir);
  const opts = { hosts, publicAddress: 'localhost' };
  if (!certDir) {
    const pair = generateSelfSignedServing(opts);
    log.info('Generated self-signed cert in-memory');
    return fixed({ cert: pair.certificatePem, key: pair.privateKeyPem });
  }
  const pair = await ensureSelfSignedServing(path.resolve(certDir), { ...opts, baseName: PAIR_NAME }).catch((e: unknown) => {
    throw new StartupError(`--${FLAGS.certDir} ${path.resolve(certDir)}: ${syscallErrorText(e)}`);
  });
  for (const line of selfSignedServingLines(pair)) log.info(line);
  return watchServingPair('serving-cert', pair.certFile, pair.keyFile, () => ({ cert: pair.certificatePem, key: pair.privateKeyPem }), log);
}
