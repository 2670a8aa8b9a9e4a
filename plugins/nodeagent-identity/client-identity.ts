// The node's client identity (k8s-behaviour §5.4, §5.7): load the --platconfig kubeconfig when it
// holds a usable certificate; otherwise TLS bootstrap with --bootstrap-kubeconfig (write the
// kubeconfig pointing at <cert-dir>/nodeagent-client-current.pem, request a certificate with the
// bootstrap credentials). The certificate manager keeps it rotated when rotateCertificates is on.
// ctx.api is the API client with the current certificate, switched in place on rotation; when it
// has had no valid certificate for 5 minutes while the server is healthy (upstream's sense: the
// last rotation worked or the last CSR create was refused with 401, 403 or 404), the agent exits
// (klog.Fatal upstream) so a supervisor restarts it into bootstrap. A CSR waiting for approval
// does not make the server healthy: an agent waits for an operator as long as it takes.
import { existsSync } from 'node:fs';
import { whenAborted } from '../../core/abort-wait.js';
import { SIGNER_NODEAGENT_CLIENT } from '../../core/certificates/csr-object.js';
import { CertificateManager } from '../../core/client/certificate/manager.js';
import { FileStore, pairFromPem, type StoredPair } from '../../core/client/certificate/store.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import { bootstrapCluster, writeNodeKubeconfig } from './kubeconfig-files.js';
import { clientTemplate } from './serving-template.js';

export interface ClientIdentityOptions {
  readonly version: string;
  readonly now?: () => Date;
  readonly random?: () => number;
  /** How often the expiry watchdog looks (10 s upstream) and how long it tolerates no certificate (5 min). */
  readonly watchdogIntervalMs?: number;
  readonly watchdogLimitMs?: number;
  /** The agent must stop (no valid certificate for too long). */
  exit(reason: string): void;
}

export const CLIENT_PREFIX = 'nodeagent-client';

/** The kubeconfig's certificate if it is there and unexpired (LoadClientConfig's first branch). */
function usableKubeconfig(file: string, now: Date): ClientConnection | undefined {
  if (!existsSync(file)) return undefined;
  let conn: ClientConnection;
  try { conn = loadKubeconfig(file); } catch { return undefined; }
  if (!conn.clientCert || !conn.clientKey) return conn.token ? conn : undefined;
  try {
    const pair = pairFromPem(conn.clientCert.toString(), conn.clientKey.toString(), file);
    return now < pair.notAfter ? conn : undefined;
  } catch { return undefined; }
}

export async function runClientIdentity(ctx: NodeAgentContext, o: ClientIdentityOptions, signal: AbortSignal): Promise<void> {
  const now = o.now ?? (() => new Date());
  const platconfig = ctx.flags.get<string>('platconfig') ?? '';
  const bootstrapFile = ctx.flags.get<string>('bootstrap-kubeconfig') ?? '';
  const certDir = ctx.flags.get<string>('cert-dir') ?? '';
  const store = new FileStore({ dir: certDir, prefix: CLIENT_PREFIX });
  const log = ctx.logger.child('client-certificate');

  let connection = usableKubeconfig(platconfig, now());
  let bootstrapClient: RestClient | undefined;
  if (!connection) {
    if (!bootstrapFile) {
      throw new Error(`unable to load client config: the kubeconfig ${JSON.stringify(platconfig)} is missing or has no usable credentials, and no --bootstrap-kubeconfig was given`);
    }
    let cluster;
    try {
      cluster = bootstrapCluster(bootstrapFile);
    } catch (e) {
      throw new Error(`unable to load bootstrap kubeconfig: ${bootstrapFile}: ${e instanceof KubeconfigError ? e.message : (e as Error).message}`);
    }
    log.info('Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file', { bootstrap: bootstrapFile, kubeconfig: platconfig });
    await writeNodeKubeconfig(platconfig, cluster, store.currentPath);
    const bootstrapConn = loadKubeconfig(bootstrapFile);
    bootstrapClient = new RestClient(bootstrapConn, { userAgent: `nodeagent/${o.version}`, qps: 0 });
    const { clientCert: _c, clientKey: _k, token: _t, ...cluster2 } = bootstrapConn;
    connection = cluster2;
  }

  const base: ClientConnection = connection;
  const clientOptions = { userAgent: `nodeagent/${o.version}`, qps: ctx.config.platAPIQPS, burst: ctx.config.platAPIBurst };
  let api: RestClient | undefined;
  const publish = (pair: StoredPair) => {
    if (!api) {
      api = new RestClient({ ...base, clientCert: pair.certPem, clientKey: pair.keyPem }, clientOptions);
      ctx.api.set(api);
    } else {
      api.setClientCertificate(pair.certPem, pair.keyPem);
      ctx.api.set(api);
    }
  };
  // A kubeconfig with a token (no certificate): no rotation possible, use it as it is.
  if (!bootstrapClient && connection.token && !connection.clientCert) {
    ctx.api.set(new RestClient(connection, clientOptions));
    await whenAborted(signal);
    return;
  }
  if (!bootstrapClient && connection.clientCert && connection.clientKey && !ctx.config.rotateCertificates) {
    publish(pairFromPem(connection.clientCert.toString(), connection.clientKey.toString(), platconfig));
    await whenAborted(signal);
    return;
  }

  let healthy = false;
  const manager: CertificateManager = new CertificateManager({
    name: 'client', store, signerName: SIGNER_NODEAGENT_CLIENT, use: 'client', logger: log,
    template: () => clientTemplate(ctx.nodeName),
    // The bootstrap credentials while there is no valid certificate (§5.4 step 2).
    client: (): RestClient => {
      const client = api && manager.current() ? api : bootstrapClient ?? api;
      if (!client) throw new Error('no credentials to request a client certificate with');
      return client;
    },
    onCurrent: publish,
    onServerHealth: (h) => { healthy = h; },
    ...(o.now ? { now: o.now } : {}), ...(o.random ? { random: o.random } : {}),
  });
  // A kubeconfig certificate the store does not hold (files of the operator's): in force until rotated.
  if (!bootstrapClient && connection.clientCert && connection.clientKey && !manager.current()) {
    publish(pairFromPem(connection.clientCert.toString(), connection.clientKey.toString(), platconfig));
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const watchdog = startWatchdog(() => manager.current(), () => healthy, o, now, log);
  try {
    if (ctx.config.rotateCertificates) {
      await manager.run(stop.signal);
    } else {
      // Without rotation the manager only bootstraps: it stops at the first certificate.
      const once = new AbortController();
      const stopOnce = () => once.abort();
      stop.signal.addEventListener('abort', stopOnce, { once: true });
      const unsubscribe = ctx.api.onChange(stopOnce);
      if (!ctx.api.isSet()) await manager.run(once.signal);
      unsubscribe();
      await whenAborted(stop.signal);
    }
  } finally {
    clearInterval(watchdog);
    signal.removeEventListener('abort', onAbort);
    bootstrapClient?.close();
  }
}

function startWatchdog(current: () => StoredPair | undefined, healthy: () => boolean, o: ClientIdentityOptions, now: () => Date,
  log: NodeAgentContext['logger']): NodeJS.Timeout {
  const limit = o.watchdogLimitMs ?? 5 * 60_000;
  let missingSince: number | undefined;
  const t = setInterval(() => {
    if (current()) { missingSince = undefined; return; }
    missingSince ??= now().getTime();
    if (now().getTime() - missingSince <= limit) return;
    const fields = { lastCertificateAvailabilityTime: new Date(missingSince).toISOString(), shutdownThreshold: `${Math.round(limit / 1000)}s` };
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

