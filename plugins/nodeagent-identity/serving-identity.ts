// The secure server's pair: tlsCertFile + tlsPrivateKeyFile when given; otherwise a self-signed
// pair in --cert-dir (nodeagent.crt / nodeagent.key, as upstream's kubelet.crt / kubelet.key);
// with serverTLSBootstrap that pair serves until a `platform/nodeagent-serving` certificate is
// issued (never auto-approved), then the issued one, rotated like the client certificate. An issued
// certificate that expires before its successor is approved gives way to the self-signed pair again:
// plat serves that pair whenever it has no valid issued one (before the first, after a restart with
// an expired one), where upstream's GetCertificate fails the handshake ('no serving certificate
// available for the kubelet'); never the expired certificate.
import { SIGNER_NODEAGENT_SERVING } from '../../core/certificates/csr-object.js';
import { CertificateManager } from '../../core/client/certificate/manager.js';
import { FileStore } from '../../core/client/certificate/store.js';
import type { NodeAgentContext, TlsPair } from '../../core/nodeagent/context.js';
import { ensureSelfSignedServing } from '../../core/pki/index.js';
import { loadServingPair } from '../../core/server/serving-pair.js';
import { servingTemplate } from './serving-template.js';

export const SERVING_PREFIX = 'nodeagent-server';

export interface ServingIdentityOptions {
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly templateCheckMs?: number;
}

export async function runServingIdentity(ctx: NodeAgentContext, o: ServingIdentityOptions, signal: AbortSignal): Promise<void> {
  const { tlsCertFile, tlsPrivateKeyFile, serverTLSBootstrap } = ctx.config;
  const certDir = ctx.flags.get<string>('cert-dir') ?? '';
  const log = ctx.logger.child('serving-certificate');
  if (!ctx.config.enableServer) return; // nothing would serve with it
  if (tlsCertFile && tlsPrivateKeyFile) {
    ctx.servingPair.set(loadServingPair({ name: 'tlsCertFile', path: tlsCertFile }, { name: 'tlsPrivateKeyFile', path: tlsPrivateKeyFile }));
    return;
  }
  const selfSigned = async (): Promise<TlsPair> => {
    const pair = await ensureSelfSignedServing(certDir, { hosts: [ctx.hostname], baseName: 'nodeagent' });
    return { cert: pair.certificatePem, key: pair.privateKeyPem };
  };
  if (!serverTLSBootstrap || ctx.standalone) {
    ctx.servingPair.set(await selfSigned());
    return;
  }
  const store = new FileStore({ dir: certDir, prefix: SERVING_PREFIX });
  const manager = new CertificateManager({
    name: 'serving', store, signerName: SIGNER_NODEAGENT_SERVING, use: 'serving', logger: log,
    template: () => servingTemplate(ctx.nodeName, ctx.addresses.get()),
    client: () => ctx.api.wait(signal),
    onCurrent: (pair) => ctx.servingPair.set({ cert: pair.certPem, key: pair.keyPem }),
    onExpired: (pair) => {
      log.warn('The serving certificate has expired and no new one is issued yet: serving the self-signed pair until one is', { expiration: pair.notAfter.toISOString() });
      selfSigned().then(
        // A certificate issued while the pair was being written wins.
        (fallback) => { if (!manager.current()) ctx.servingPair.set(fallback); },
        (e: unknown) => log.error('Unable to serve the self-signed pair', { error: (e as Error).message }),
      );
    },
    ...(o.now ? { now: o.now } : {}), ...(o.random ? { random: o.random } : {}),
    ...(o.templateCheckMs ? { templateCheckMs: o.templateCheckMs } : {}),
  });
  // Serve with a self-signed pair until the issued certificate arrives.
  if (!manager.current()) ctx.servingPair.set(await selfSigned());
  await manager.run(signal);
}
