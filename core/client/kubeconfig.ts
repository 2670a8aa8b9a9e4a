// Connection settings read from a kubeconfig-format file, as clientcmd reads them: for the webhooks
// (--authentication-token-webhook-config-file, --authorization-webhook-config-file, an
// AuthorizationConfiguration's connectionInfo.kubeConfigFile), the controller manager
// (--platconfig, --authentication-kubeconfig, --authorization-kubeconfig) and the `plat` commands:
// the cluster is the server (URL and how to trust it), the user is how plat authenticates to it.
// Only what a client needs is understood. The user's credentials are client-go's: a client
// certificate, a token, a `tokenFile` (re-read as it changes), basic auth and an `exec` credential
// plugin (kubeconfig-auth.ts, exec-credential.ts, token-file.ts); of the `auth-provider`s, gcp and
// azure say they were removed as kubectl's do, and oidc (which kubectl still has) is refused,
// naming an exec plugin to use instead. Relative file paths are resolved against the file's own
// directory, as clientcmd does; the `plat` commands merge a list of files ($KUBECONFIG) as
// clientcmd merges it.
//
// Choice (upstream allows any scheme): the server must be https, or http only to a loopback host,
// since bearer tokens and callers' identities cross this connection.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { isNotExist, osErrorText } from '../go-os-error.js';
import { decodeKubeconfig, KubeconfigDecodeError } from './kubeconfig-decode.js';
import { clientPairError, rootCertificatesError } from './kubeconfig-tls.js';
import { parseProxyUrl } from './proxy-connect.js';
import { impersonationProblem, mergedImpersonation, type Impersonation, type ImpersonationOverrides } from './kubeconfig-impersonation.js';
import { authProblems, userAuth } from './kubeconfig-auth.js';
import type { CredentialSource } from './credential-source.js';
import { ClientCertFiles, type ClientCertFilesOptions } from './client-cert-files.js';

export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** Everything needed to call the server, with file contents already read (a ClientConnection). */
export interface WebhookConnection {
  readonly server: URL;
  /** PEM bundle to trust instead of the host's root set. */
  readonly ca?: Buffer;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** The cluster's proxy-url: an http, https or socks5 proxy that tunnels to the server. */
  readonly proxyUrl?: URL;
  readonly clientCert?: Buffer;
  readonly clientKey?: Buffer;
  /** Where clientCert and clientKey were read from, when the kubeconfig named files (absolute paths). */
  readonly clientCertFile?: string;
  readonly clientKeyFile?: string;
  /**
   * Both came from files (no data): followed while clients use them (client-go's ReloadTLSFiles).
   * Whoever replaces clientCert/clientKey drops this too.
   */
  readonly clientCertFiles?: ClientCertFiles;
  /** Bearer token plat presents to the server (not a caller's token). */
  readonly token?: string;
  /** Credentials asked for at each request instead: a token file, basic auth, an exec plugin. */
  readonly credentials?: CredentialSource;
  /** The context's namespace, which kubectl's commands use when no --namespace is given. */
  readonly namespace?: string;
  /** Who every request asks to act as: the user's `as` (and its uid, groups, extras), with kubectl's --as* over them. */
  readonly impersonate?: Impersonation;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string field (the decoder has refused other types), undefined when empty as Go's zero value. */
function str(o: Obj, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A cluster, user or context entry, with the directory its relative file paths start from. */
interface Entry { readonly name: string; readonly value: Obj; readonly dir: string }

/** The files' entries by name and current-context, merged as clientcmd merges a list of files. */
interface Merged {
  readonly clusters: Map<string, Entry>;
  readonly users: Map<string, Entry>;
  readonly contexts: Map<string, Entry>;
  currentContext: string | undefined;
}

/** kubectl's --context, --cluster and --user: they replace what the current context names. */
export interface KubeconfigOverrides {
  readonly context?: string | undefined;
  readonly cluster?: string | undefined;
  readonly user?: string | undefined;
  /** kubectl's --as, --as-uid and --as-group (the `plat` client commands take them). */
  readonly impersonate?: ImpersonationOverrides;
}

function addEntries(into: Map<string, Entry>, list: unknown, field: string, kind: string, dir: string): void {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) throw new KubeconfigError(`${kind}s must be a list`);
  for (const e of list.filter(isObj)) {
    const name = typeof e['name'] === 'string' ? e['name'] : '';
    const inner = e[field];
    if (inner !== undefined && inner !== null && !isObj(inner)) throw new KubeconfigError(`${kind} "${name}": ${field} must be a mapping`);
    // clientcmd's merge: the first file to define a name wins (the whole entry, not field by field).
    if (!into.has(name)) into.set(name, { name, value: isObj(inner) ? inner : {}, dir });
  }
}

function readFile(file: string, into: Merged): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // clientcmd's loading rules: an explicit file must exist (os.Stat's error alone); any other
    // failure is wrapped with the file's name (and a list's missing files were skipped before).
    if (isNotExist(err)) throw new KubeconfigError(osErrorText('stat', file, err));
    throw new KubeconfigError(`error loading config file "${file}": ${osErrorText('open', file, err)}`);
  }
  let doc: Obj;
  try {
    // As clientcmd reads it (sigs.k8s.io/yaml): `insecure-skip-tls-verify: yes` is true, and only
    // the first document of a file that holds several counts (yaml.Unmarshal reads no further).
    doc = decodeKubeconfig(text);
  } catch (err) {
    if (!(err instanceof KubeconfigDecodeError)) throw err;
    throw new KubeconfigError(`error loading config file "${file}": ${err.message}`);
  }
  const dir = path.dirname(path.resolve(file));
  addEntries(into.clusters, doc['clusters'], 'cluster', 'cluster', dir);
  addEntries(into.users, doc['users'], 'user', 'user', dir);
  addEntries(into.contexts, doc['contexts'], 'context', 'context', dir);
  // The first file with a current-context chooses it.
  into.currentContext ??= str(doc, 'current-context');
}

/** Without a context naming it: the only entry there is, if any. */
function onlyEntry(entries: Map<string, Entry>, kind: string): Entry | undefined {
  if (entries.size > 1) throw new KubeconfigError(`several ${kind}s and no context choosing one`);
  return entries.values().next().value;
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (LOOPBACK_NAMES.has(h.toLowerCase())) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(h) || h.toLowerCase() === '::ffff:127.0.0.1';
  return false;
}

/**
 * Reads the file at `file` into connection settings. `data` fields are base64 (as in kubeconfig);
 * file fields are read now, so a missing certificate fails start-up, not the first request.
 */
export function loadKubeconfig(file: string, o: LoadOptions = {}): WebhookConnection {
  return load([file], {}, o, false);
}

export interface LoadOptions {
  /**
   * Leave tls.X509KeyPair of the client certificate and key to the caller, who runs
   * transport.TLSConfigFor's checks itself (the node agent's isClientConfigStillValid).
   */
  readonly skipClientPairCheck?: boolean;
  /**
   * ConfigOverrides.ClusterInfo.Server (the controller manager's --master, checked by the caller):
   * the cluster's server, which also drops the file's tls-server-name (clientcmd's getCluster).
   */
  readonly server?: URL;
  /** How a client certificate given as files is followed (client-cert-files.ts). */
  readonly clientCertFiles?: ClientCertFilesOptions;
}

/** ErrEmptyCluster, which validateClusterInfo says alone for a cluster with nothing set. */
const EMPTY_CLUSTER = 'cluster has no server defined';
/** ErrEmptyConfig: ConfirmUsable's word when the empty cluster is the only problem. */
const EMPTY_CONFIG = 'no configuration has been provided, try setting KUBERNETES_MASTER environment variable';

const isZero = (v: unknown): boolean => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);

/**
 * Reads and merges `files` as clientcmd merges $KUBECONFIG: the first file to define a cluster,
 * user or context name wins, the first non-empty current-context wins, and each file's relative
 * paths start at its own directory. `overrides` are kubectl's --context, --cluster and --user.
 */
export function loadKubeconfigs(files: readonly string[], overrides: KubeconfigOverrides = {}, o: LoadOptions = {}): WebhookConnection {
  return load(files, overrides, o, true);
}

/**
 * `kubectl`: the `plat` commands' loader, as kubectl's: its ClusterDefaults give every cluster a
 * server, so a missing context is its only problem, said alone. Otherwise the components' (their
 * --kubeconfig, --platconfig, webhook files; no overrides): DirectClientConfig.ConfirmUsable's
 * problems together, a missing context's cluster and user being the empty ones.
 */
function load(files: readonly string[], overrides: KubeconfigOverrides, o: LoadOptions, kubectl: boolean): WebhookConnection {
  const merged: Merged = { clusters: new Map(), users: new Map(), contexts: new Map(), currentContext: undefined };
  for (const file of files) readFile(file, merged);
  // ConfirmUsable: every problem it finds, together (errConfigurationInvalid).
  const problems: string[] = [];
  const contextName = overrides.context || merged.currentContext;
  let context: Obj | undefined;
  if (contextName) {
    context = merged.contexts.get(contextName)?.value;
    if (context === undefined) {
      const notFound = `context was not found for specified context: ${contextName}`;
      if (kubectl) throw new KubeconfigError(notFound);
      problems.push(notFound);
      context = {};
    }
  } else {
    context = onlyEntry(merged.contexts, 'context')?.value;
  }
  let clusterEntry: Entry | undefined;
  const clusterName = overrides.cluster || (context !== undefined ? str(context, 'cluster') : undefined);
  if (!kubectl && context !== undefined) {
    // getCluster without a required name: a cluster that is not there is the empty one.
    const name = clusterName ?? '';
    clusterEntry = merged.clusters.get(name) ?? { name, value: {}, dir: process.cwd() };
  } else if (overrides.cluster) {
    clusterEntry = merged.clusters.get(overrides.cluster);
    // The override names a cluster that is not there: an empty one, which has no server.
    if (clusterEntry === undefined) throw new KubeconfigError(`no server found for cluster ${JSON.stringify(overrides.cluster)}`);
  } else if (context !== undefined) {
    if (clusterName === undefined) throw new KubeconfigError('the context names no cluster');
    clusterEntry = merged.clusters.get(clusterName);
    if (clusterEntry === undefined) throw new KubeconfigError(`no server found for cluster "${clusterName}"`);
  } else {
    clusterEntry = onlyEntry(merged.clusters, 'cluster');
  }
  const userName = overrides.user || (context !== undefined ? str(context, 'user') : undefined);
  let userEntry: Entry | undefined;
  if (userName !== undefined) {
    userEntry = merged.users.get(userName);
    if (userEntry === undefined) throw new KubeconfigError(`auth info "${userName}" does not exist`);
  } else if (context === undefined) {
    userEntry = onlyEntry(merged.users, 'user');
  }
  if (clusterEntry === undefined) throw new KubeconfigError('no cluster is configured');
  // ClusterInfo's server replaces the file's, and its tls-server-name with it.
  const { 'tls-server-name': _replaced, ...withoutName } = clusterEntry.value;
  const cluster: Obj = o.server ? { ...withoutName, server: o.server.href } : clusterEntry.value;
  const user = userEntry?.value ?? {};
  const emptyCluster = !kubectl && Object.values(cluster).every(isZero);

  // Then validateAuthInfo's problems, then validateClusterInfo's.
  const read = (e: Entry, key: string, what: string): Buffer | undefined => {
    const ref = str(e.value, key);
    if (ref === undefined) return undefined;
    const abs = path.resolve(e.dir, ref);
    try {
      return readFileSync(abs);
    } catch (err) {
      problems.push(`unable to read ${what} ${abs} for ${e.name} due to ${osErrorText('open', abs, err)}`);
      return undefined;
    }
  };
  // The decoder has checked the base64; data wins over the file, as upstream's (after the complaint).
  const data = (o: Obj, key: string): Buffer | undefined => (str(o, key) === undefined ? undefined : Buffer.from(str(o, key)!, 'base64'));

  let clientCert: Buffer | undefined;
  let clientKey: Buffer | undefined;
  if (userEntry && (str(user, 'client-certificate') || str(user, 'client-certificate-data'))) {
    if (str(user, 'client-certificate') && str(user, 'client-certificate-data')) {
      problems.push(`client-cert-data and client-cert are both specified for ${userEntry.name}. client-cert-data will override.`);
    }
    if (str(user, 'client-key') && str(user, 'client-key-data')) {
      problems.push(`client-key-data and client-key are both specified for ${userEntry.name}; client-key-data will override`);
    }
    if (!str(user, 'client-key') && !str(user, 'client-key-data')) {
      problems.push(`client-key-data or client-key must be specified for ${userEntry.name} to use the clientCert authentication method.`);
    }
    const certFile = read(userEntry, 'client-certificate', 'client-cert');
    const keyFile = read(userEntry, 'client-key', 'client-key');
    clientCert = data(user, 'client-certificate-data') ?? certFile;
    clientKey = data(user, 'client-key-data') ?? keyFile;
  }

  // validateAuthInfo's other problems, before the cluster's; clientcmd names the user the context (or
  // --user) names, even one that is not there.
  const authName = userEntry?.name ?? userName ?? '';
  problems.push(...authProblems(authName, user));
  const impersonation = mergedImpersonation(user, overrides.impersonate);
  const impersonationWrong = impersonationProblem(authName, impersonation);
  if (impersonationWrong) problems.push(impersonationWrong);

  const serverText = str(cluster, 'server');
  if (emptyCluster) problems.push(EMPTY_CLUSTER);
  else if (serverText === undefined) problems.push(clusterEntry.name ? `no server found for cluster ${JSON.stringify(clusterEntry.name)}` : 'default cluster has no server defined');
  const proxyText = str(cluster, 'proxy-url');
  let proxyUrl: URL | undefined;
  if (proxyText !== undefined) {
    try {
      proxyUrl = parseProxyUrl(proxyText);
    } catch (e) {
      problems.push(`invalid 'proxy-url' ${JSON.stringify(proxyText)} for cluster ${JSON.stringify(clusterEntry.name)}: ${(e as Error).message}`);
    }
  }
  if (str(cluster, 'certificate-authority') && str(cluster, 'certificate-authority-data')) {
    problems.push(`certificate-authority-data and certificate-authority are both specified for ${clusterEntry.name}. certificate-authority-data will override.`);
  }
  const caFile = read(clusterEntry, 'certificate-authority', 'certificate-authority');
  if (problems.length === 1 && problems[0] === EMPTY_CLUSTER) problems[0] = EMPTY_CONFIG;
  if (problems.length > 0) {
    // errConfigurationInvalid: utilerrors.NewAggregate's text, one error alone or a bracketed list.
    throw new KubeconfigError(`invalid configuration: ${problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`}`);
  }

  let server: URL;
  try {
    server = new URL(serverText!);
  } catch {
    throw new KubeconfigError(`cluster.server ${JSON.stringify(serverText)} is not a URL`);
  }
  if (server.protocol !== 'https:' && !(server.protocol === 'http:' && isLoopbackHost(server.hostname))) {
    throw new KubeconfigError(`cluster.server must be an https URL (http only to a loopback host), got ${server.protocol}//${server.host}`);
  }
  if (server.username || server.password) throw new KubeconfigError('cluster.server must not carry user info');
  if (proxyUrl && server.protocol !== 'https:') throw new KubeconfigError('cluster.proxy-url: plat proxies https servers only');

  // client-go reads the user's credentials only for a TLS server (IsConfigTransportTLS): a token or
  // client certificate is never sent in the clear.
  const tlsServer = server.protocol === 'https:';
  const insecure = cluster['insecure-skip-tls-verify'] === true;
  const caBytes = data(cluster, 'certificate-authority-data') ?? caFile;
  // An empty bundle is no bundle (rootCertPool): the host's roots.
  const ca = caBytes !== undefined && caBytes.length > 0 ? caBytes : undefined;
  // transport.TLSConfigFor, in its order.
  if (insecure && ca !== undefined) throw new KubeconfigError('specifying a root certificates file with the insecure flag is not allowed');
  const caProblem = ca && rootCertificatesError(ca);
  if (caProblem) throw new KubeconfigError(caProblem);
  if (tlsServer && clientCert !== undefined && clientKey !== undefined && !o.skipClientPairCheck) {
    const pairProblem = clientPairError(clientCert, clientKey);
    if (pairProblem) throw new KubeconfigError(pairProblem);
  }
  const tlsServerName = str(cluster, 'tls-server-name');
  let auth: ReturnType<typeof userAuth> = {};
  if (tlsServer) {
    try {
      auth = userAuth(authName, user, userEntry?.dir ?? process.cwd(), clientCert !== undefined && clientKey !== undefined, {
        server: serverText!, tlsServerName, insecureSkipTlsVerify: insecure, ca: caBytes, proxyUrl: proxyText,
        disableCompression: cluster['disable-compression'] === true, extensions: cluster['extensions'],
      });
    } catch (e) {
      throw new KubeconfigError((e as Error).message);
    }
  }
  const token = auth.token;
  const fileOf = (key: string): string | undefined => {
    const ref = tlsServer && userEntry ? str(userEntry.value, key) : undefined;
    return ref === undefined ? undefined : path.resolve(userEntry!.dir, ref);
  };
  const clientCertFile = fileOf('client-certificate');
  const clientKeyFile = fileOf('client-key');
  const namespace = context !== undefined ? str(context, 'namespace') : undefined;
  // loadTLSFiles: ReloadTLSFiles only when both halves are files (the decoder refused data beside them).
  const followed = tlsServer && clientCert !== undefined && clientKey !== undefined && clientCertFile !== undefined && clientKeyFile !== undefined
    && str(user, 'client-certificate-data') === undefined && str(user, 'client-key-data') === undefined
    ? new ClientCertFiles(clientCertFile, clientKeyFile, { cert: clientCert, key: clientKey }, o.clientCertFiles)
    : undefined;

  return {
    server,
    insecureSkipTlsVerify: insecure,
    ...(ca !== undefined ? { ca } : {}),
    ...(tlsServerName !== undefined ? { tlsServerName } : {}),
    ...(proxyUrl !== undefined ? { proxyUrl } : {}),
    ...(tlsServer && clientCert !== undefined && clientKey !== undefined ? { clientCert, clientKey } : {}),
    ...(clientCertFile !== undefined ? { clientCertFile } : {}),
    ...(clientKeyFile !== undefined ? { clientKeyFile } : {}),
    ...(followed !== undefined ? { clientCertFiles: followed } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(auth.credentials !== undefined ? { credentials: auth.credentials } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    // clientcmd's ClientConfig impersonates only when a user is named (validation refused the rest),
    // and whether or not the server is TLS: the headers are no credential.
    ...(impersonation.user !== '' ? { impersonate: impersonation } : {}),
  };
}
