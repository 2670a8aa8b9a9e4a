// upstream's bootstrap.LoadClientCert, which the kubelet runs when rotateCertificates is off and a
// bootstrap kubeconfig is given (k8s-behaviour §5.3, §5.4 item 5). Unlike the rotation path (a new
// key and a `csr-` generateName at every attempt), everything here survives a restart while the
// CSR waits for approval: the key is kept in <cert-dir>/nodeagent-client.key.tmp until the
// certificate is stored, and the CSR's name is derived from that key, subject and usages
// (node-csr-name.ts), so the restarted agent finds its own CSR and waits on it again instead of
// piling up CSRs that each need an approval. The kubeconfig pointing at the store's current file
// is written last, as upstream does: until then the agent has no client and the next start
// bootstraps again.
import { unlinkSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { SIGNER_NODEAGENT_CLIENT } from '../../core/certificates/csr-object.js';
import { loadOrGenerateKeyFile, parsePrivateKeyPem } from '../../core/client/certificate/key-file.js';
import { requestCertificate } from '../../core/client/certificate/request.js';
import { FileStore } from '../../core/client/certificate/store.js';
import { waitForCertificate, waitLogHooks } from '../../core/client/certificate/wait.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { RestClientMetrics } from '../../core/metrics/rest-client.js';
import { spkiOf } from '../../core/crypto/index.js';
import { osErrorText } from '../../core/go-os-error.js';
import type { Logger } from '../../core/log.js';
import { loadBootstrapKubeconfig, stillValid } from './client-config.js';
import { writeNodeKubeconfig } from './kubeconfig-files.js';
import { nodeCsrName } from './node-csr-name.js';
import { clientTemplate } from './serving-template.js';
import { waitForServer, type WaitForServerOptions } from './wait-for-server.js';

/** requestNodeCertificate's wait. */
const WAIT_TIMEOUT_MS = 3600_000;

export interface LoadClientCertOptions {
  readonly kubeconfig: string;
  readonly bootstrap: string;
  readonly certDir: string;
  /** The store's file prefix, `nodeagent-client`. */
  readonly prefix: string;
  readonly nodeName: string;
  readonly userAgent: string;
  /** The agent's REST client families: its bootstrap requests count too, as client-go's. */
  readonly metrics?: RestClientMetrics;
  readonly log: Logger;
  readonly now: () => Date;
  readonly waitForServer?: WaitForServerOptions;
}

interface KeyPair { readonly keyPem: string; readonly key: KeyObject }

/** Resolves once the kubeconfig holds a valid certificate, or early when `signal` stops it; throws upstream's errors. */
export async function loadClientCert(o: LoadClientCertOptions, signal: AbortSignal): Promise<void> {
  // Told to stop before it began: no key is made, no CSR sent.
  if (signal.aborted) return;
  if (stillValid(o.kubeconfig, o.log, o.now())) {
    o.log.v(2).info('Kubeconfig exists and is valid, skipping bootstrap', { path: o.kubeconfig });
    return;
  }
  o.log.v(2).info('Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file');
  const { conn, cluster } = loadBootstrapKubeconfig(o.bootstrap);
  const client = new RestClient(conn, { userAgent: o.userAgent, qps: 0, ...(o.metrics ? { metrics: o.metrics } : {}) });
  try {
    const store = new FileStore({ dir: o.certDir, prefix: o.prefix, logger: o.log });
    // A separate file: the store's current file is a link the store replaces.
    const tmpKey = path.join(o.certDir, `${o.prefix}.key.tmp`);
    let key = storedKey(store);
    if (!key) {
      o.log.v(2).info('No valid private key and/or certificate found, reusing existing private key or creating a new one');
      key = loadOrGenerateKeyFile(tmpKey);
    }
    await waitForServer(client, o.log, signal, o.waitForServer);
    if (signal.aborted) return;
    const certPem = await requestNodeCertificate(client, key, o, signal);
    if (certPem === undefined) return;
    store.update(certPem, key.keyPem, o.now());
    try { unlinkSync(tmpKey); } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') o.log.v(2).info('Failed cleaning up private key file', { path: tmpKey, err: osErrorText('remove', tmpKey, e) });
    }
    await writeNodeKubeconfig(o.kubeconfig, cluster, store.currentPath);
  } finally {
    client.close();
  }
}

/** The key of the store's current pair, expired or not, when there is one that parses. */
function storedKey(store: FileStore): KeyPair | undefined {
  try {
    const { keyPem } = store.current();
    const key = parsePrivateKeyPem(keyPem);
    return key && { keyPem, key };
  } catch {
    return undefined;
  }
}

/** The certificate PEM, or undefined when stopped. */
async function requestNodeCertificate(client: RestClient, k: KeyPair, o: LoadClientCertOptions, signal: AbortSignal): Promise<string | undefined> {
  const template = clientTemplate(o.nodeName);
  // Key encipherment only for RSA, after the others (upstream appends it; the order is hashed).
  const usages = ['digital signature', 'client auth', ...(k.key.asymmetricKeyType === 'rsa' ? ['key encipherment'] : [])];
  const name = nodeCsrName({ publicKeyDer: spkiOf(k.key), commonName: template.commonName, organizations: template.organizations, usages });
  try {
    const req = await requestCertificate(client, {
      template, signerName: SIGNER_NODEAGENT_CLIENT, use: 'client', key: k.key, name, usages, logger: o.log, now: o.now, signal,
    });
    o.log.v(2).info('Waiting for client certificate to be issued');
    const cert = await waitForCertificate(client, req.name, {
      uid: req.uid, timeoutMs: WAIT_TIMEOUT_MS, signal, refusals: 'retry', ...waitLogHooks(o.log, { csr: req.name }),
      onApproved: () => o.log.v(2).info(`certificate signing request ${req.name} is approved, waiting to be issued`),
    });
    o.log.v(2).info(`certificate signing request ${req.name} is issued`);
    return cert.toString('utf8');
  } catch (e) {
    if (signal.aborted) return undefined;
    throw e;
  }
}
