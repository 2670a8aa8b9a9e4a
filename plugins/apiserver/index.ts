// ApiServerPlugin: serves the registered resources over HTTPS from embedded LMDB. It owns the
// serving, storage and authorization-mode flags; authenticators, authorizers, admission and
// resources are other plugins meeting it through the hooks.
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { SHUTDOWN_STAGE, type Configuration } from '../../core/hooks.js';
import type { Host } from '../../core/host.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { MASTERS_GROUP } from '../../core/authn/user.js';
import { AUTHORIZATION_MODE_FLAG, AUTHORIZATION_MODE_KIND, authorizerChain, isChainFromFile } from '../../core/authz/chain.js';
import { NO_RULES } from '../../core/authz/rules.js';
import { ensureSelfSignedServing, selfSignedServingLines } from '../../core/pki/index.js';
import { Resources } from '../../core/registry/registry.js';
import type { ResourceConfig } from '../../core/registry/resource-config.js';
import { completeRuntimeConfig, mergeRuntimeConfig, RUNTIME_CONFIG_FLAG, runtimeConfigProblem } from '../../core/registry/runtime-config.js';
import { ResourceStore } from '../../core/registry/store.js';
import { setServedStores } from '../../core/registry/stores.js';
import { createApp, storeKey } from '../../core/server/app.js';
import { versionInfo } from '../../core/version.js';
import { HealthChecks } from '../../core/server/health.js';
import { HTTP2_DOS_MITIGATION_GATE } from '../../core/server/http2-dos-mitigation.js';
import { inProcessServer } from '../../core/server/in-process.js';
import { listen, MAX_HEADER_BYTES, type RunningServer } from '../../core/server/listen.js';
import type { CertKeyPem } from '../../core/server/serving-pair.js';
import { derived, type Changing } from '../../core/tls/changing.js';
import { sleep } from '../../core/abort-wait.js';
import { formatDuration } from '../../core/flags/duration.js';
import { RequestWaitGroup } from '../../core/server/wait-group.js';
import { WatchWaitGroup } from '../../core/server/watch-termination.js';
import { authoritiesPem, type ClientAuthority } from '../../core/authn/client-authorities.js';
import { watchServingFiles, watchServingPair } from '../../core/tls/dynamic-content.js';
import type { WatchedFiles } from '../../core/tls/watched-files.js';
import { startCompactor } from '../../core/storage/compactor.js';
import { openLmdbStorage, type LmdbStore } from '../../core/storage/lmdb.js';
import { STORE_DIR } from '../../core/storage/snapshot-restore.js';
import { removeLeftoverSnapshots } from '../../core/server/snapshot-route.js';
import type { Storage } from '../../core/storage/storage.js';
import { apiserverFlags, ENABLE_GARBAGE_COLLECTOR_FLAG } from './flags.js';
import { startDebugSocket } from './debug-socket.js';
import { encryptStorage, ENCRYPTION_FLAG, readEncryptionConfig, RELOAD_FLAG, type EncryptionConfig } from './encryption.js';
import { PolicyEvaluator } from '../../core/audit/policy.js';
import { AuditPolicyError, loadPolicyFile } from '../../core/audit/policy-file.js';
import type { AuditEvent } from '../../core/audit/event.js';
import { servingTlsSettings } from '../../core/server/tls-settings.js';
import { isUnspecified, joinHostPort, listenOnBindAddress, withServingPort } from '../../core/server/bind-address.js';
import { SNI_FLAG, SniCertificates } from '../../core/server/sni.js';
import { PROFILING_FLAG, profilingFlags, v8Profiler } from '../../core/server/debug/index.js';
import { makeDir } from '../../core/make-dir.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import { checkSecurePort } from '../../core/server/secure-port.js';
import { serverRunOptionsProblems } from '../../core/server/server-run-options.js';
import { limitsWithFairnessProblems, maxInFlightLimits } from '../../core/server/max-in-flight-options.js';
import { InFlightRequests } from '../../core/server/max-in-flight.js';
import { inFlightPeriods } from './in-flight-periods.js';
import { CORS_FLAG } from '../../core/server/cors.js';
import { GOAWAY_CHANCE_FLAG } from '../../core/server/goaway.js';
import { HSTS_FLAG } from '../../core/server/hsts.js';
import { located, locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import { goawayRandom } from './goaway-random.js';
import { bodySchemas, warmTypeCheckers } from '../../core/server/type-checkers.js';
import { DELETE_OPTIONS_SCHEMA } from '../../core/server/delete-options.js';
import { apiserverMetrics } from '../../core/metrics/apiserver.js';
import { instrumentAdmissionPlugins } from '../../core/admission/plugin-metrics.js';
import { admissionPluginOfTap } from '../../core/admission/plugins.js';
import { metricsFlags, metricsSettingsFromFlags } from '../../core/metrics/flags.js';

const PLUGIN_NAME = 'ApiServerPlugin';
/** Upstream's: net/http waits 1s for the peer to answer a GOAWAY. */
const SEND_RETRY_AFTER_SHUTDOWN_TIMEOUT_MS = 2000;
const PRIVILEGED_ALLOW = Object.freeze({ decision: 'allow' as const });

export interface ApiServerHandle {
  readonly server: RunningServer;
  readonly storage: Storage;
  readonly resources: Resources;
  /** The generic store of every registered resource, by `storeKey(group, version, plural)`. */
  readonly stores: ReadonlyMap<string, ResourceStore>;
  /** https://host:port a local client reaches the server at. */
  readonly url: string;
  /** A connection from inside this process presenting `chain` as its client certificates (core/server/in-process.ts). */
  dial(chain: readonly Buffer[]): Duplex;
}

const handles = new WeakMap<Host, ApiServerHandle>();
/** The running API server of a host (after `start`), for the all-in-one role and tests. */
export const getApiServer = (host: Host): ApiServerHandle | undefined => handles.get(host);

export const ApiServerPlugin: Plugin = {
  name: PLUGIN_NAME,
  // resources at configure; the request path (core/server/app.ts, the generic store) the rest.
  calls: ['resources', 'authenticate', 'clientAuthorities', 'authorize', 'admitMutate', 'admitValidate', 'audit'],
  apply(host: Host): void {
    let cfg: Configuration | undefined;
    let auditPolicy: PolicyEvaluator | undefined;
    let encryption: EncryptionConfig | undefined;
    // Every resource the plugins register, and the ones --runtime-config lets the server install.
    let registered: Resources | undefined;
    let runtimeConfig: ReadonlyMap<string, string> = new Map();
    let resourceConfig: ResourceConfig | undefined;
    // Upstream's ShutdownInitiated: /readyz fails, while the server goes on serving for
    // --shutdown-delay-duration (load balancers take it out meanwhile).
    const initiated = new AbortController();
    // NotAcceptingNewRequest (no pre-shutdown hooks): the listener closes, the requests in flight drain.
    const stopping = new AbortController();
    // Past the drain: what is still open (watches, profiles) ends.
    const ended = new AbortController();
    let drain: (() => Promise<void>) | undefined;
    // Upstream's DebugSocket stops as shutdown begins (its Run's stopCh), ahead of the drain.
    let closeDebugSocket: (() => Promise<void>) | undefined;
    const cleanups: (() => Promise<void> | void)[] = [];

    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      for (const f of apiserverFlags) flags.define({ ...f, owner: PLUGIN_NAME });
      for (const f of profilingFlags('Serving, network and process', {
        profiling: 'Serve profiling at `host:port/debug/pprof/`.',
        contention: 'Block profiling, when profiling is enabled.',
      })) flags.define({ ...f, owner: PLUGIN_NAME });
      for (const f of metricsFlags('Versions, features, metrics and logging')) flags.define({ ...f, owner: PLUGIN_NAME });
    });

    // Upstream's privileged-group authorizer: system:masters is allowed everything, ahead of the
    // configured chain, whatever the modes say (so an admin cannot lock itself out).
    host.hooks.authorize.tap({ name: 'PrivilegedGroupsAuthorizer', stage: Number.MIN_SAFE_INTEGER },
      (a) => (a.user.groups.includes(MASTERS_GROUP) ? PRIVILEGED_ALLOW : undefined));
    // It lists no rules, and is no reason for an incomplete list: upstream's is no RuleResolver
    // (system:masters' rules come from RBAC's cluster-admin binding, when RBAC is in the chain).
    host.hooks.rulesFor.tap({ name: 'PrivilegedGroupsAuthorizer', stage: Number.MIN_SAFE_INTEGER }, () => NO_RULES);

    // ServerRunOptions.Validate, first of kube-apiserver's, then plat's refusal of the in-flight
    // limits it cannot honour: gathered with the other plugins' problems.
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.generic }, ({ flags }) => {
      const error = locatedError([...serverRunOptionsProblems(flags), limitsWithFairnessProblems(flags)]);
      if (error) throw error;
    });

    // APIEnablementOptions.Validate, against the group versions the resource plugins register.
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.apiEnablement }, ({ flags }) => {
      registered = new Resources();
      host.hooks.resources.call(registered);
      runtimeConfig = completeRuntimeConfig(flags.get<Record<string, string>>(RUNTIME_CONFIG_FLAG));
      const problem = runtimeConfigProblem(runtimeConfig, registered);
      if (problem !== undefined) throw locatedError([located(flags, [problem], [RUNTIME_CONFIG_FLAG])]);
    });

    // Runs after the authorizer plugins' configure taps, so every named mode must be claimed by now.
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: 100 }, (c) => {
      cfg = c;
      // Past validation, as upstream merges --runtime-config while building its config.
      try {
        resourceConfig = mergeRuntimeConfig(runtimeConfig, registered!);
      } catch (e) {
        throw locatedError([located(c.flags, [(e as Error).message], [RUNTIME_CONFIG_FLAG])]);
      }
      // Upstream's apiserver requires a port; plat's 0 picks a free one (a test's or a second server's).
      if (c.flags.get<number>('secure-port') !== 0) checkSecurePort(c.flags, true);
      // The chain comes from --authorization-mode, or from --authorization-config once its plugin
      // has read the file (which also checks its own entries).
      const modes = authorizerChain(host, c.flags).map((e) => e.type);
      if (modes.length === 0) throw new StartupError('--authorization-mode: at least one authorization mode must be given', 2);
      const missing = [...new Set(modes.filter((m) => !host.capabilities.has(AUTHORIZATION_MODE_KIND, m)))];
      if (missing.length) {
        const have = host.capabilities.names(AUTHORIZATION_MODE_KIND);
        const what = `${missing.map((m) => `"${m}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not available in this plat (available: ${have.join(', ') || 'none'})`;
        if (isChainFromFile(host)) throw new StartupError(`--authorization-config: authorizer type ${what}`);
        throw new StartupError(`--authorization-mode: ${what}`, 2);
      }
      const policyFile = c.flags.get<string>('audit-policy-file');
      if (policyFile) {
        try {
          auditPolicy = new PolicyEvaluator(loadPolicyFile(policyFile));
        } catch (e) {
          if (e instanceof AuditPolicyError) throw new StartupError(e.message);
          throw e;
        }
      }
      encryption = readEncryptionConfig(c.flags.get<string>(ENCRYPTION_FLAG), c.flags.get<boolean>(RELOAD_FLAG));
      const flagModes = c.flags.get<string[]>(AUTHORIZATION_MODE_FLAG);
      const dups = flagModes.filter((m, i) => flagModes.indexOf(m) !== i);
      if (dups.length) throw new StartupError(`--authorization-mode: "${dups[0]}" is given more than once`, 2);
      // Before anything records: the allow-lists apply when a series is first looked up.
      const { major, minor } = versionInfo(host.version);
      apiserverMetrics(host).registry.configure(metricsSettingsFromFlags(c.flags, `${major}.${minor}`, (m) => host.logger.child('apiserver').error(m)));
    });

    host.hooks.start.tapPromise(PLUGIN_NAME, async () => {
      const flags = cfg!.flags;
      const log = host.logger.child('apiserver');
      const dataDir = path.resolve(flags.get<string>('data-dir'));
      const storeDir = path.join(dataDir, STORE_DIR);
      let engine: LmdbStore;
      try {
        await makeDir(dataDir, 0o700);
        engine = await openLmdbStorage({ path: storeDir, logger: host.logger.child('storage') });
      } catch (e) {
        // An operator's problem (held by another process, permissions, a full disk): said plainly, exit 1.
        throw new StartupError(`--data-dir ${dataDir}: ${syscallErrorText(e)}`);
      }
      cleanups.push(() => engine.close());
      removeLeftoverSnapshots(storeDir);
      const encrypted = encryption && encryptStorage(engine, encryption, host.logger.child('encryption-config'), apiserverMetrics(host).transformations.record);
      if (encrypted) cleanups.unshift(() => encrypted.stop());
      const storage = encrypted ? encrypted.storage : engine;
      const interval = flags.get<number>('store-compaction-interval');
      if (interval > 0) {
        const compactor = startCompactor(storage, interval);
        cleanups.unshift(() => compactor.stop());
      }

      // A resource --runtime-config leaves out has no store, no route, no discovery and no OpenAPI.
      const resources = registered!.only((d) => resourceConfig!.resourceEnabled(d.group, d.version, d.plural));
      const stores = new Map<string, ResourceStore>();
      const admissionMetrics = apiserverMetrics(host).admission;
      instrumentAdmissionPlugins(host.hooks, admissionMetrics, (tap) => admissionPluginOfTap(host, tap));
      const garbageCollection = flags.get<boolean>(ENABLE_GARBAGE_COLLECTOR_FLAG);
      for (const def of resources.all()) {
        stores.set(storeKey(def.group, def.version, def.plural), new ResourceStore(def, storage, { prefix: flags.get<string>('store-prefix'), hooks: host.hooks, logger: log, admissionMetrics, garbageCollection }));
      }
      encrypted?.index(stores.values());

      const bind = flags.get<string>('bind-address');
      const advertise = flags.get<string>('advertise-address') || (isUnspecified(bind) ? '' : bind);
      const external = flags.get<string>('external-hostname');
      // Upstream's "serving-cert" content: the files, given or written to --cert-dir, are watched.
      let tls: WatchedFiles<CertKeyPem>;
      const certFile = flags.get<string>('tls-cert-file');
      const keyFile = flags.get<string>('tls-private-key-file');
      if (certFile || keyFile) {
        // NewDynamicServingContentFromFiles' refusal of half a pair (MaybeDefaultWithSelfSignedCerts
        // makes no pair when either file is given).
        if (!certFile || !keyFile) throw new StartupError('missing filename for serving cert', 2);
        tls = watchServingFiles({ name: '--tls-cert-file', path: certFile }, { name: '--tls-private-key-file', path: keyFile }, log);
      } else {
        const hosts = [...new Set([advertise, external, 'localhost', '127.0.0.1', os.hostname()].filter(Boolean))];
        const certDir = path.resolve(flags.get<string>('cert-dir'));
        const pair = await ensureSelfSignedServing(certDir, { hosts }).catch((e: unknown) => {
          throw new StartupError(`--cert-dir ${certDir}: ${syscallErrorText(e)}`);
        });
        tls = watchServingPair('serving-cert', pair.certFile, pair.keyFile, () => ({ cert: pair.certificatePem, key: pair.privateKeyPem }), log);
        // MaybeDefaultWithSelfSignedCerts' line when it made the pair; which pair it serves otherwise.
        for (const line of selfSignedServingLines(pair)) log.info(line);
      }
      tls.start();
      cleanups.push(() => tls.stop());

      const profiling = flags.get<boolean>(PROFILING_FLAG);
      if (profiling) {
        // Heap sampling runs from start-up, so /debug/pprof/heap covers what is alive since then.
        await v8Profiler.acquire();
        cleanups.push(() => v8Profiler.release());
      }

      const health = new HealthChecks({ logger: log.child('healthz') });
      health.add({ name: 'ping', check: async () => {} });
      health.add({ name: 'log', check: async () => {} });
      health.add({ name: 'store', check: async () => { await storage.currentRevision(); } });
      health.add({ name: 'shutdown', check: async () => (initiated.signal.aborted ? 'process is shutting down' : undefined) }, ['readyz']);

      const port = flags.get<number>('secure-port');
      const tlsSettings = servingTlsSettings(flags.get<string>('tls-min-version'), flags.get<string[]>('tls-cipher-suites'), log, flags.get<boolean>('disable-http2-serving'));
      const sni = SniCertificates.watch(flags.get<string[]>(SNI_FLAG), log);
      sni.start();
      cleanups.push(() => sni.stop());
      const maxStreams = flags.get<number>('http2-max-streams-per-connection');
      // The handshake names the client-certificate authorities of every authenticator that has
      // some, rebuilt when one of their files changes (as upstream's DynamicServingCertificateController).
      const authorities: Changing<readonly ClientAuthority[]>[] = [];
      host.hooks.clientAuthorities.call({ add: (bundle) => { authorities.push(bundle); } });
      const servingTls = derived([tls, ...authorities], () => {
        const ca = authoritiesPem(authorities);
        return { ...tls.current(), ciphers: tlsSettings.ciphers, ...(ca ? { ca } : {}) };
      });
      const placeholder = { address: '', port };
      // Upstream's ExternalAddress (discovery's serverAddress, the service-account issuer's host):
      // --external-hostname, else the advertised address, else the local one.
      const localHost = isUnspecified(bind) ? '127.0.0.1' : bind;
      const externalAddress = () => withServingPort(external || advertise || localHost, placeholder.port);
      const sendRetryAfter = flags.get<boolean>('shutdown-send-retry-after');
      const watchGraceMs = flags.get<number>('shutdown-watch-termination-grace-period');
      const requests = new RequestWaitGroup();
      const watches = watchGraceMs > 0 ? new WatchWaitGroup() : undefined;
      const metrics = apiserverMetrics(host);
      metrics.storageObjects = () => countStoredObjects(stores);
      const limits = maxInFlightLimits(flags);
      const maxInFlight = limits ? new InFlightRequests(limits, metrics.inFlight) : undefined;
      // Upstream's max-in-flight-filter post-start hook: the watermarks' maintenance, whatever the limits.
      if (maxInFlight) inFlightPeriods(host)(() => maxInFlight.endPeriod(), ended.signal);
      const app = createApp({
        hooks: host.hooks, resources, stores, health, version: versionInfo(host.version, host.gitVersion), logger: log,
        minRequestTimeoutSeconds: flags.get<number>('min-request-timeout'), deleteCollectionWorkers: flags.get<number>('delete-collection-workers'), compression: host.featureGates.enabled('APIResponseCompression'),
        storageVersionHash: host.featureGates.enabled('StorageVersionHash'), unauthenticatedHttp2Mitigation: host.featureGates.enabled(HTTP2_DOS_MITIGATION_GATE), requestTimeoutMs: flags.get<number>('request-timeout'),
        hstsDirectives: flags.get<string[]>(HSTS_FLAG), corsAllowedOrigins: flags.get<string[]>(CORS_FLAG),
        // Upstream installs the filter only when HTTP/2 is served.
        goawayChance: flags.get<boolean>('disable-http2-serving') ? 0 : flags.get<number>(GOAWAY_CHANCE_FLAG), goawayRandom: goawayRandom(host),
        snapshot: { dir: storeDir, copy: (file) => engine.backup(file, true) },
        shutdown: ended.signal, requests, ...(watches ? { watches } : {}), ...(maxInFlight ? { maxInFlight } : {}), ...(sendRetryAfter ? { retryAfter: stopping.signal } : {}), profiling, metrics,
        get serverAddress() { return externalAddress(); },
        // Upstream's sink and policy: both, or no auditing at all (and nothing paid per request).
        ...(auditPolicy && host.hooks.audit.taps.length > 0
          ? { audit: { policy: auditPolicy, process: (ev: AuditEvent) => host.hooks.audit.promise(ev), logger: host.logger.child('audit'), metrics: metrics.audit } } : {}),
      });
      const debugSocket = await startDebugSocket(flags, log);
      if (debugSocket) {
        cleanups.unshift(() => debugSocket.close());
        closeDebugSocket = () => debugSocket.close();
      }
      let server: RunningServer;
      try {
        // Blank, 0.0.0.0 or :: is every interface of both families, as Go's listener (bind-address.ts).
        server = await listenOnBindAddress(bind, (h) => listen(app, {
          host: h, port, tls: servingTls, http2: !flags.get<boolean>('disable-http2-serving'),
          minVersion: tlsSettings.minVersion, sni, ...(maxStreams ? { maxStreamsPerConnection: maxStreams } : {}),
          // Go's server asks for a certificate only when it has authorities to check it against.
          requestCert: authorities.length > 0, log,
        }));
      } catch (e) {
        throw new StartupError(`cannot listen on ${joinHostPort(bind || '0.0.0.0', port)}: ${(e as Error).message}`);
      }
      placeholder.port = server.address.port;
      setServedStores(host, resources, stores, externalAddress());
      const inProcess = inProcessServer(app, MAX_HEADER_BYTES);
      // Upstream's Server.Shutdown, bounded by its ShutdownTimeout: --request-timeout, or 2s once the
      // requests in flight have drained with --shutdown-send-retry-after (net/http waits 1s for a
      // GOAWAY's answer). Without --shutdown-watch-termination-grace-period watches are not ended:
      // they hold the drain to that bound.
      const shutdownTimeoutMs = sendRetryAfter ? SEND_RETRY_AFTER_SHUTDOWN_TIMEOUT_MS : flags.get<number>('request-timeout');
      if (sendRetryAfter) log.v(1).info('[graceful-termination] using HTTP Server shutdown timeout', { shutdownTimeout: formatDuration(shutdownTimeoutMs) });
      const listening = joinHostPort(server.address.address, server.address.port);
      const delayMs = flags.get<number>('shutdown-delay-duration');
      drain = async () => {
        const graceful = log.v(1);
        const event = (name: string) => graceful.info('[graceful-termination] shutdown event', { name });
        event('ShutdownInitiated');
        if (delayMs > 0) await sleep(delayMs);
        event('AfterShutdownDelayDuration');
        stopping.abort();
        event('NotAcceptingNewRequest');
        const nonLongRunning = requests.wait().then(() => graceful.info('[graceful-termination] in-flight non long-running request(s) have drained'));
        let activeWatches = Promise.resolve();
        if (watches) {
          activeWatches = watches.wait(watchGraceMs).then((r) => graceful.info('[graceful-termination] active watch request(s) have drained', {
            duration: formatDuration(watchGraceMs), activeWatchesBefore: r.before, activeWatchesAfter: r.after, error: r.error ?? '<nil>',
          }));
        } else graceful.info('[graceful-termination] not going to wait for active watch request(s) to drain');
        const inFlightDrained = Promise.all([nonLongRunning, activeWatches]).then(() => event('InFlightRequestsDrained'));
        // With --shutdown-send-retry-after the port stays open, answering 429, until then.
        if (sendRetryAfter) await inFlightDrained;
        const drained = Promise.all([server.close(shutdownTimeoutMs), inProcess.close(shutdownTimeoutMs)]);
        log.info(`Stopped listening on ${listening}`);
        if ((await drained).includes(false)) log.error('Failed to shutdown server: context deadline exceeded');
        await inFlightDrained;
        ended.abort();
        graceful.info('[graceful-termination] apiserver is exiting');
      };
      handles.set(host, { server, storage, resources, stores, url: `https://${joinHostPort(localHost, server.address.port)}`, dial: (chain) => inProcess.dial(chain) });
      log.info(`Serving securely on ${joinHostPort(server.address.address, server.address.port)}`, { dataDir, resources: resources.all().map((d) => `${d.plural}.${d.group}`) });
      // Off start-up's path: the first request of each resource would otherwise compile its checker.
      void warmTypeCheckers([...bodySchemas(resources), DELETE_OPTIONS_SCHEMA], { signal: initiated.signal, busy: () => requests.count > 0, log });
    });

    // After the parts of this process that call the server (their last writes land), before what
    // the request path uses: the requests in flight finish with it.
    host.hooks.shutdown.tapPromise({ name: PLUGIN_NAME, stage: SHUTDOWN_STAGE.serving }, async () => {
      initiated.abort();
      await closeDebugSocket?.();
      if (!drain) stopping.abort();
      await drain?.();
      drain = undefined;
    });
    host.hooks.shutdown.tapPromise({ name: PLUGIN_NAME, stage: SHUTDOWN_STAGE.storage }, async () => {
      ended.abort();
      for (const c of cleanups.splice(0)) await c();
    });
  },
};

/**
 * apiserver_storage_objects' samples: each stored resource once (its versions share a prefix),
 * labelled as upstream's GroupResource string, `plural` or `plural.group`; -1 where counting failed.
 */
async function countStoredObjects(stores: ReadonlyMap<string, ResourceStore>): Promise<[string, number][]> {
  const byResource = new Map<string, ResourceStore>();
  for (const store of stores.values()) {
    // Reviews are answered, never stored: upstream has no storage, so no series, for them.
    if (store.def.review) continue;
    const { group, plural } = store.def;
    byResource.set(group ? `${plural}.${group}` : plural, store);
  }
  return Promise.all([...byResource].map(async ([resource, store]) => [resource, await store.countObjects().catch(() => -1)] as [string, number]));
}
