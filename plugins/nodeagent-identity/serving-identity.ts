// The secure server's pair, in upstream's NewMainKubelet order. With serverTLSBootstrap (and the
// RotateKubeletServerCertificate gate) a `platform/nodeagent-serving` certificate (never
// auto-approved), rotated like the client certificate; tlsCertFile + tlsPrivateKeyFile, when given,
// are then only the store's fallback pair (client-go's FileStore reads `nodeagent-server-current.pem`
// first), served until a certificate is issued, which is asked for at once when they do not fit
// the node's template. While there is nothing to serve, and once the pair in force has expired
// unreplaced, the slot holds null and the secure port fails every handshake, as upstream's
// GetCertificate does with the certificate manager's Current() nil ('no serving certificate
// available for the kubelet'); no self-signed pair is written then. Standalone, with no API server
// to ask, a stored pair still serves until it expires, as upstream's manager without a client
// keeps what it loaded. Without serverTLSBootstrap: the given files, watched while the agent runs
// with the ReloadKubeletServerCertificateFile gate on (upstream's
// NewKubeletServerCertificateDynamicFileManager: a rewritten, usable pair goes to new handshakes,
// an unusable one is logged and the current kept), read once with it off; else the pair in
// --cert-dir (nodeagent.crt / nodeagent.key, as upstream's kubelet.crt / kubelet.key), self-signed
// when there is none, and then followed as the given files are.
import { sleep, whenAborted } from '../../core/abort-wait.js';
import { SIGNER_NODEAGENT_SERVING } from '../../core/certificates/csr-object.js';
import { CertificateManager } from '../../core/client/certificate/manager.js';
import { FileStore, type StoredPair } from '../../core/client/certificate/store.js';
import type { Logger } from '../../core/log.js';
import type { NodeAgentContext, TlsPair } from '../../core/nodeagent/context.js';
import { ensureSelfSignedServing, selfSignedServingLines } from '../../core/pki/index.js';
import { loadServingPair } from '../../core/server/serving-pair.js';
import { watchServingPair } from '../../core/tls/dynamic-content.js';
import { servingTemplate } from './serving-template.js';
import { servingCertificateMetrics } from './certificate-metrics.js';

export const SERVING_PREFIX = 'nodeagent-server';
/** Upstream's "kubelet-server-cert-files" dynamic content, in log lines as `<it>::<cert>::<key>`. */
const SERVING_FILES = 'nodeagent-server-cert-files';

export interface ServingIdentityOptions {
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly templateCheckMs?: number;
}

const tlsPair = (pair: StoredPair): TlsPair => ({ cert: pair.certPem, key: pair.keyPem });

export async function runServingIdentity(ctx: NodeAgentContext, o: ServingIdentityOptions, signal: AbortSignal): Promise<void> {
  if (!ctx.config.enableServer) return; // nothing would serve with it
  const { tlsCertFile, tlsPrivateKeyFile, serverTLSBootstrap } = ctx.config;
  const log = ctx.logger.child('serving-certificate');
  if (serverTLSBootstrap && ctx.gates.enabled('RotateKubeletServerCertificate')) {
    await runServingCertificateManager(ctx, o, log, signal);
    return;
  }
  if (tlsCertFile && tlsPrivateKeyFile) {
    await serveFiles(ctx, tlsCertFile, tlsPrivateKeyFile, log, signal);
    return;
  }
  // InitializeTLS: the pair in --cert-dir, generated only when there is none, then served as
  // tlsCertFile's (kc.TLSCertFile names it from there on), so watched with the gate on.
  const pair = await ensureSelfSignedServing(ctx.flags.get<string>('cert-dir') ?? '', { hosts: [ctx.hostname], baseName: 'nodeagent' });
  for (const line of selfSignedServingLines(pair)) log.info(line);
  await serveFiles(ctx, pair.certFile, pair.keyFile, log, signal);
}

async function serveFiles(ctx: NodeAgentContext, certFile: string, keyFile: string, log: Logger, signal: AbortSignal): Promise<void> {
  const load = () => loadServingPair({ name: 'tlsCertFile', path: certFile }, { name: 'tlsPrivateKeyFile', path: keyFile });
  if (!ctx.gates.enabled('ReloadKubeletServerCertificateFile')) {
    ctx.servingPair.set(load());
    return;
  }
  const files = watchServingPair(SERVING_FILES, certFile, keyFile, load, log);
  const take = (pair: TlsPair) => {
    ctx.servingPair.set(pair);
    log.v(4).info('loaded certificate and key pair in nodeagent server certificate manager', { certFile, keyFile });
  };
  take(files.current());
  files.onChange(take);
  files.start();
  try {
    await whenAborted(signal);
  } finally {
    files.stop();
  }
}

async function runServingCertificateManager(ctx: NodeAgentContext, o: ServingIdentityOptions, log: Logger, signal: AbortSignal): Promise<void> {
  const { tlsCertFile, tlsPrivateKeyFile } = ctx.config;
  // NewKubeletServerCertificateManager's NewFileStore: the given files are read only while no
  // issued certificate is current, and never watched (ReloadKubeletServerCertificateFile is not
  // consulted on this path).
  const store = new FileStore({ dir: ctx.flags.get<string>('cert-dir') ?? '', prefix: SERVING_PREFIX, certFile: tlsCertFile, keyFile: tlsPrivateKeyFile, logger: log });
  const allowDnsOnly = ctx.gates.enabled('AllowDNSOnlyNodeCSR');
  const now = o.now ?? (() => new Date());
  const metrics = servingCertificateMetrics(ctx.metrics, () => manager.current(), now);
  const manager: CertificateManager = new CertificateManager({
    store, signerName: SIGNER_NODEAGENT_SERVING, use: 'serving', logger: log,
    template: () => servingTemplate(ctx.nodeName, ctx.addresses.get(), allowDnsOnly),
    client: () => ctx.api.wait(signal),
    onCurrent: (pair) => ctx.servingPair.set(tlsPair(pair)),
    onExpired: (pair) => {
      log.warn('The serving certificate has expired and no new one is issued yet: TLS handshakes fail until one is', { expiration: pair.notAfter.toISOString() });
      ctx.servingPair.set(null);
    },
    now,
    ...metrics,
    ...(o.random ? { random: o.random } : {}),
    ...(o.templateCheckMs ? { templateCheckMs: o.templateCheckMs } : {}),
  });
  const stored = manager.current();
  // The port listens from the start; handshakes fail until a certificate is issued.
  if (!stored) ctx.servingPair.set(null);
  if (!ctx.standalone) {
    await manager.run(signal);
    return;
  }
  log.v(2).info('Certificate rotation is not enabled, no connection to the apiserver');
  if (!stored) return;
  ctx.servingPair.set(tlsPair(stored));
  await sleep(stored.notAfter.getTime() - now().getTime(), signal);
  if (!signal.aborted) ctx.servingPair.set(null);
}
