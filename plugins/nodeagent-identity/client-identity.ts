// The node's client identity (k8s-behaviour §5.4, §5.7): client-config.ts decides between the
// --platconfig kubeconfig and TLS bootstrap with --bootstrap-kubeconfig (write the kubeconfig
// pointing at <cert-dir>/nodeagent-client-current.pem, request a certificate with the bootstrap
// credentials). The certificate manager keeps it rotated when rotateCertificates is on; a
// certificate the kubeconfig names as files is in force until its rotation deadline, one it holds
// as data is stored and replaced at once, as upstream's kubelet does. Without rotation, TLS
// bootstrap is upstream's legacy one (load-client-cert.ts: a key and a CSR name that survive a
// restart), then the files the kubeconfig names are followed (by the API client, as client-go
// re-reads them).
// ctx.api is the API client with the current certificate, switched in place on rotation; when it
// has had no valid certificate for 5 minutes while the server is healthy (upstream's sense: the
// last rotation worked or the last CSR create was refused with 401, 403 or 404), the agent exits
// (klog.Fatal upstream) so a supervisor restarts it into bootstrap. A CSR waiting for approval
// does not make the server healthy: an agent waits for an operator as long as it takes.
import path from 'node:path';
import { whenAborted } from '../../core/abort-wait.js';
import { SIGNER_NODEAGENT_CLIENT } from '../../core/certificates/csr-object.js';
import { CertificateManager } from '../../core/client/certificate/manager.js';
import { FileStore, NoCertKeyError, pairFromPem, type StoredPair } from '../../core/client/certificate/store.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { RestClient } from '../../core/client/rest-client.js';
import { legacyBootstrap, type NodeAgentContext } from '../../core/nodeagent/context.js';
import { defaultUserAgent } from '../../core/client/user-agent.js';
import { anonymousClientConfig, loadClientConfig, loadNodeKubeconfig } from './client-config.js';
import { loadClientCert } from './load-client-cert.js';
import type { WaitForServerOptions } from './wait-for-server.js';
import { clientTemplate } from './serving-template.js';
import { goTime } from '../../core/go-time-text.js';
import { formatDuration } from '../../core/flags/duration.js';
import { restClientMetrics } from '../../core/metrics/rest-client.js';
import { clientCertificateMetrics } from './certificate-metrics.js';

export interface ClientIdentityOptions {
  readonly version: string;
  /** `--version=vX.Y.Z...`'s GitVersion, when given: the agent reports it. */
  readonly gitVersion?: string | undefined;
  readonly now?: () => Date;
  readonly random?: () => number;
  /** How often the expiry watchdog looks (10 s upstream) and how long it tolerates no certificate (5 min). */
  readonly watchdogIntervalMs?: number;
  readonly watchdogLimitMs?: number;
  /** Test seam: the legacy bootstrap's wait for the API server (load-client-cert.ts). */
  readonly waitForServer?: WaitForServerOptions;
  /** The agent must stop (no valid certificate for too long). */
  exit(reason: string): void;
}

export const CLIENT_PREFIX = 'nodeagent-client';

export async function runClientIdentity(ctx: NodeAgentContext, o: ClientIdentityOptions, signal: AbortSignal): Promise<void> {
  const now = o.now ?? (() => new Date());
  const platconfig = ctx.flags.get<string>('platconfig') ?? '';
  const bootstrapFile = ctx.flags.get<string>('bootstrap-kubeconfig') ?? '';
  const certDir = ctx.flags.get<string>('cert-dir') ?? '';
  const log = ctx.logger.child('client-certificate');
  if (ctx.config.rotateCertificates) log.info('Client rotation is on, will bootstrap in background');
  const currentPem = path.join(certDir, `${CLIENT_PREFIX}-current.pem`);
  // The kubelet's clients set no agent of their own: rest.DefaultKubernetesUserAgent's, for all of them.
  const userAgent = defaultUserAgent('nodeagent', o.version, o.gitVersion);
  // As client-go's process-wide metrics: every client of the agent counts, the bootstrap ones too.
  const metrics = restClientMetrics(ctx.metrics);
  // Without rotation, a bootstrap kubeconfig means upstream's legacy LoadClientCert, done before
  // the kubeconfig is read (buildKubeletClientConfig); the kubeconfig is then used as it is.
  const legacy = legacyBootstrap(ctx);
  if (legacy) {
    await loadClientCert({
      kubeconfig: platconfig, bootstrap: bootstrapFile, certDir, prefix: CLIENT_PREFIX, nodeName: ctx.nodeName, userAgent, metrics, log, now,
      ...(o.waitForServer ? { waitForServer: o.waitForServer } : {}),
    }, signal);
    if (signal.aborted) return;
  }
  const { certConfig, clientConfig, bootstrapping } = legacy
    ? loadNodeKubeconfig(platconfig)
    : await loadClientConfig(platconfig, bootstrapFile, currentPem, log, now());
  // The kubeconfig's certificate files are the store's second place to look (buildClientCertificateManager),
  // so an operator's certificate stays in force until its rotation deadline.
  const store = new FileStore({
    dir: certDir, prefix: CLIENT_PREFIX, logger: log,
    ...(clientConfig.clientCertFile && clientConfig.clientKeyFile ? { certFile: clientConfig.clientCertFile, keyFile: clientConfig.clientKeyFile } : {}),
  });

  const clientOptions = { userAgent, qps: ctx.config.platAPIQPS, burst: ctx.config.platAPIBurst, logger: ctx.logger, metrics };
  // A kubeconfig with a token, a token file, basic auth or an exec plugin (no certificate), no
  // bootstrap: no rotation possible, used as it is.
  if ((clientConfig.token || clientConfig.credentials) && !clientConfig.clientCert) {
    ctx.api.set(new RestClient(clientConfig, clientOptions));
    await whenAborted(signal);
    return;
  }
  let api: RestClient | undefined;
  // With rotation, the node's client is rest.AnonymousClientConfig of clientConfig with the
  // manager's certificate (buildKubeletClientConfig): a token or an impersonation there is not sent.
  const nodeConfig = ctx.config.rotateCertificates ? anonymousClientConfig(clientConfig) : clientConfig;
  // With rotation, upstream's transport (UpdateTransport) says when it closes its connections for a
  // new certificate: each one the manager puts in force after the one it started with, which is
  // none when bootstrapping.
  const rotationDetected = () => {
    if (ctx.config.rotateCertificates) log.info('Certificate rotation detected, shutting down client connections to start using new credentials');
  };
  const publish = (pair: StoredPair) => {
    if (!api) {
      if (bootstrapping) rotationDetected();
      api = new RestClient({ ...nodeConfig, clientCert: pair.certPem, clientKey: pair.keyPem }, clientOptions);
      ctx.api.set(api);
    } else {
      rotationDetected();
      api.setClientCertificate(pair.certPem, pair.keyPem);
      ctx.api.set(api);
    }
  };
  // Without rotation, a certificate the kubeconfig names as files is followed by the client itself
  // (nodeConfig's clientCertFiles, core/client/client-cert-files.ts: client-go's ReloadTLSFiles);
  // one it holds as data stays as it is.
  if (clientConfig.clientCert && clientConfig.clientKey && !ctx.config.rotateCertificates) {
    publish(pairFromPem(clientConfig.clientCert.toString(), clientConfig.clientKey.toString(), platconfig));
    await whenAborted(signal);
    return;
  }
  // Certificate data in the kubeconfig itself (kubeadm's admin-like kubeconfig): written into the
  // store and replaced at once (getCurrentCertificateOrBootstrap).
  const embedded = clientConfig.clientCert && clientConfig.clientKey && !clientConfig.clientCertFile;
  const forceInitialRotation = embedded ? storeEmbedded(store, clientConfig, now(), log) : false;
  let certClient: RestClient | undefined;
  let renewClient: RestClient | undefined;
  let renewPair: StoredPair | undefined;
  let healthy = false;
  // Registered only where upstream has a client certificate manager: with rotation.
  const managerMetrics = ctx.config.rotateCertificates ? clientCertificateMetrics(ctx.metrics, () => manager.current(), now) : undefined;
  const manager: CertificateManager = new CertificateManager({
    store, signerName: SIGNER_NODEAGENT_CLIENT, use: 'client', logger: log,
    template: () => clientTemplate(ctx.nodeName),
    // certConfig (the bootstrap credentials) while there is no valid certificate (§5.4 step 2).
    client: (): RestClient => {
      const current = manager.current();
      if (api && current) {
        if (!clientConfig.impersonate) return api;
        // buildClientCertificateManager's clientset is clientConfig itself, impersonation kept.
        if (!renewClient || renewPair !== current) {
          renewClient?.close();
          const { clientCertFiles: _files, ...withoutFiles } = clientConfig;
          renewClient = new RestClient({ ...withoutFiles, clientCert: current.certPem, clientKey: current.keyPem }, { userAgent, qps: 0, metrics });
          renewPair = current;
        }
        return renewClient;
      }
      certClient ??= new RestClient(certConfig, { userAgent, qps: 0, metrics });
      return certClient;
    },
    onCurrent: publish,
    onServerHealth: (h) => { healthy = h; },
    forceInitialRotation,
    ...managerMetrics,
    ...(o.now ? { now: o.now } : {}), ...(o.random ? { random: o.random } : {}),
  });
  // The store could not take it: in force from memory until replaced, as upstream keeps it.
  if (embedded && !manager.current()) {
    const pair = pairFromPem(clientConfig.clientCert!.toString(), clientConfig.clientKey!.toString(), platconfig);
    if (now() < pair.notAfter) publish(pair);
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  // Told to stop while the kubeconfig was read (a SIGTERM just after start, another subsystem that
  // failed): the listener came too late for it, and the bootstrap must not send a CSR now.
  if (signal.aborted) stop.abort();
  const watchdog = startWatchdog(() => manager.current(), () => healthy, o, now, log);
  try {
    if (ctx.config.rotateCertificates) {
      await manager.run(stop.signal);
    } else {
      // Without rotation (and no bootstrap kubeconfig: that went through loadClientCert) the
      // manager only gets a first certificate for a kubeconfig that has none, then stops.
      const once = new AbortController();
      const stopOnce = () => once.abort();
      stop.signal.addEventListener('abort', stopOnce, { once: true });
      if (stop.signal.aborted) stopOnce();
      const unsubscribe = ctx.api.onChange(stopOnce);
      if (!ctx.api.isSet()) await manager.run(once.signal);
      unsubscribe();
      await whenAborted(stop.signal);
    }
  } finally {
    clearInterval(watchdog);
    signal.removeEventListener('abort', onAbort);
    certClient?.close();
    renewClient?.close();
  }
}

/** Puts the kubeconfig's own certificate into an empty store; true: rotate it out at once. */
function storeEmbedded(store: FileStore, conn: ClientConnection, now: Date, log: NodeAgentContext['logger']): boolean {
  try {
    const current = store.current();
    if (now < current.notAfter) return false;
  } catch (e) {
    if (!(e instanceof NoCertKeyError)) return false;
  }
  try {
    store.update(conn.clientCert!.toString(), conn.clientKey!.toString(), now);
  } catch (e) {
    log.error('Unable to set the cert/key pair to the bootstrap certificate', { err: (e as Error).message });
  }
  return true;
}

function startWatchdog(current: () => StoredPair | undefined, healthy: () => boolean, o: ClientIdentityOptions, now: () => Date,
  log: NodeAgentContext['logger']): NodeJS.Timeout {
  const limit = o.watchdogLimitMs ?? 5 * 60_000;
  let missingSince: number | undefined;
  const t = setInterval(() => {
    if (current()) { missingSince = undefined; return; }
    missingSince ??= now().getTime();
    if (now().getTime() - missingSince <= limit) return;
    // As klog prints upstream's time.Time and time.Duration values.
    const fields = { lastCertificateAvailabilityTime: goTime(new Date(missingSince)), shutdownThreshold: formatDuration(limit) };
    if (healthy()) {
      log.error('No valid client certificate is found and the server API is responsive, exiting.', fields);
      o.exit(`the node has had no valid client certificate for more than ${fields.shutdownThreshold}`);
    } else {
      log.error('No valid client certificate is found but the server is not responsive. A restart may be necessary to retrieve new initial credentials.', fields);
    }
  }, o.watchdogIntervalMs ?? 10_000);
  t.unref();
  return t;
}

