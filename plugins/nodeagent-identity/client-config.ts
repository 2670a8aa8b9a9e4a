// LoadClientConfig (pkg/kubelet/certificate/bootstrap, k8s-behaviour §5.4 step 1): the
// credentials that request client certificates while the node has none (certConfig), and the
// connection the node's client starts from (clientConfig). Without --bootstrap-kubeconfig the
// --platconfig kubeconfig is used as it is, whatever it holds. With one, the kubeconfig is kept
// only while it holds client certificates, all unexpired (isClientConfigStillValid): a token, a
// certificate that does not parse or an expired one sends the node through TLS bootstrap, which
// rewrites the kubeconfig to point at the certificate store.
import { X509Certificate } from 'node:crypto';
import { statSync } from 'node:fs';
import { decodePemBlocks } from '../../core/crypto/index.js';
import { goTime } from '../../core/go-time-text.js';
import { KubeconfigError, loadKubeconfig, type WebhookConnection } from '../../core/client/kubeconfig.js';
import type { Logger } from '../../core/log.js';
import { servingPairProblem } from '../../core/server/serving-pair.js';
import { bootstrapCluster, writeNodeKubeconfig } from './kubeconfig-files.js';

export interface ClientConfigs {
  /** Sends the CSRs while there is no current certificate (the bootstrap credentials, when bootstrapping). */
  readonly certConfig: WebhookConnection;
  /** The node's own connection; when bootstrapping, the bootstrap cluster without credentials. */
  readonly clientConfig: WebhookConnection;
  readonly bootstrapping: boolean;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function loadClientConfig(kubeconfig: string, bootstrap: string, currentPem: string, log: Logger, now: Date): Promise<ClientConfigs> {
  if (!bootstrap) {
    let conn: WebhookConnection;
    // The loader says a missing file as clientcmd's, which stats an explicit path first.
    try { conn = loadKubeconfig(kubeconfig); } catch (e) { throw new Error(`unable to load kubeconfig: ${message(e)}`); }
    log.v(2).info('No bootstrapping requested, will use kubeconfig');
    return { certConfig: conn, clientConfig: conn, bootstrapping: false };
  }
  const valid = stillValid(kubeconfig, log, now);
  if (valid) {
    log.v(2).info('Current kubeconfig file contents are still valid, no bootstrap necessary');
    return { certConfig: valid, clientConfig: valid, bootstrapping: false };
  }
  const { conn: bootstrapConn, cluster } = loadBootstrapKubeconfig(bootstrap);
  await writeNodeKubeconfig(kubeconfig, cluster, currentPem);
  log.v(2).info('Use the bootstrap credentials to request a cert, and set kubeconfig to point to the certificate dir');
  return { certConfig: bootstrapConn, clientConfig: anonymousClientConfig(bootstrapConn), bootstrapping: true };
}

/** The kubeconfig as the kubelet reads it after LoadClientCert (no bootstrap left to do). */
export function loadNodeKubeconfig(kubeconfig: string): ClientConfigs {
  let conn: WebhookConnection;
  try { conn = loadKubeconfig(kubeconfig); } catch (e) { throw new Error(`invalid kubeconfig: ${message(e)}`); }
  return { certConfig: conn, clientConfig: conn, bootstrapping: false };
}

/** The bootstrap kubeconfig's connection and cluster, or upstream's error naming it. */
export function loadBootstrapKubeconfig(bootstrap: string): { conn: WebhookConnection; cluster: ReturnType<typeof bootstrapCluster> } {
  try {
    return { conn: loadKubeconfig(bootstrap), cluster: bootstrapCluster(bootstrap) };
  } catch (e) {
    // bootstrap.go wraps the loader's error alone; plat's own texts that do not name the file get it.
    const m = e instanceof KubeconfigError ? e.message : message(e);
    throw new Error(`unable to load bootstrap kubeconfig: ${m.includes(bootstrap) ? m : `${bootstrap}: ${m}`}`);
  }
}

/** rest.AnonymousClientConfig: no credentials (nor a token file, basic auth or exec plugin), and no impersonation (the node's certificate speaks for itself). */
export function anonymousClientConfig(conn: WebhookConnection): WebhookConnection {
  const { clientCert: _c, clientKey: _k, clientCertFile: _cf, clientKeyFile: _kf, clientCertFiles: _f, token: _t, credentials: _cr, impersonate: _i, ...anonymous } = conn;
  return anonymous;
}

/**
 * isClientConfigStillValid: the kubeconfig as read when it is, undefined when not (each reason is
 * upstream's HandleError line).
 */
export function stillValid(file: string, log: Logger, now: Date): WebhookConnection | undefined {
  try {
    statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`error reading existing bootstrap kubeconfig ${file}: ${message(e)}`);
  }
  const invalid = (err: string): undefined => { log.error('Unhandled Error', { err }); return undefined; };
  let conn: WebhookConnection;
  try { conn = loadKubeconfig(file, { skipClientPairCheck: true }); } catch (e) {
    return invalid(`unable to read existing bootstrap client config from ${file}: ${message(e)}`);
  }
  // transport.TLSConfigFor: the certificate and key must make a pair (tls.X509KeyPair), unless
  // both are files (ReloadTLSFiles), which are only read at a handshake: a pair of files that
  // does not match keeps the kubeconfig, and the certificate manager then fails to start.
  const filesOnly = conn.clientCertFile !== undefined && conn.clientKeyFile !== undefined;
  if (conn.clientCert && conn.clientKey && !filesOnly) {
    const problem = servingPairProblem({ cert: conn.clientCert.toString(), key: conn.clientKey.toString() });
    if (problem) return invalid(`unable to load TLS configuration from existing bootstrap client config read from ${file}: ${problem.reason}`);
  }
  // certutil.ParseCertsPEM: no certificate at all (a token, nothing) is its error too.
  const certs: X509Certificate[] = [];
  try {
    for (const b of decodePemBlocks(conn.clientCert?.toString() ?? '')) if (b.label === 'CERTIFICATE') certs.push(new X509Certificate(Buffer.from(b.der)));
  } catch (e) {
    return invalid(`unable to load TLS certificates from existing bootstrap client config read from ${file}: ${message(e)}`);
  }
  if (certs.length === 0) {
    return invalid(`unable to load TLS certificates from existing bootstrap client config read from ${file}: data does not contain any valid RSA or ECDSA certificates`);
  }
  for (const cert of certs) {
    const notAfter = new Date(cert.validTo);
    if (now > notAfter) return invalid(`part of the existing bootstrap client certificate in ${file} is expired: ${goTime(notAfter)}`);
  }
  return conn;
}
