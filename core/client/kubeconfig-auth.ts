// How a kubeconfig user authenticates beyond a client certificate and a fixed token, as clientcmd
// and client-go's transport decide it: validateAuthInfo's problems (exec's fields, several methods),
// then, for a TLS server only, getUserIdentificationPartialConfig and TransportConfig: `tokenFile`
// read relative to the kubeconfig, basic auth, an `exec` plugin (used only when the user has no
// token, basic auth or client certificate: UpdateTransportConfig steps aside for them) and the
// `auth-provider`s kubectl v1.32 links (gcp and azure only say they were removed; oidc is not
// implemented and says what to use instead).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { osErrorText } from '../go-os-error.js';
import { fixedCredential, type CredentialSource } from './credential-source.js';
import { cleanAnsiEscapeCodes, execAuthenticator, type ExecConfig, type InteractiveMode } from './exec-credential.js';
import { EXEC_GROUP, EXEC_VERSIONS } from './exec-credential-output.js';
import { TokenFileSource } from './token-file.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (o: Obj, key: string): string => (typeof o[key] === 'string' ? o[key] : '');

const MODES: readonly string[] = ['Never', 'IfAvailable', 'Always'];
/** The extension of a cluster handed to its exec plugin as the ExecCredential's cluster.config. */
const CLUSTER_EXTENSION = `${EXEC_GROUP}/exec`;

/** SetDefaults_ExecConfig: the beta (and alpha) plugins were interactive when they could be; v1 must say. */
function interactiveMode(exec: Obj): string {
  const mode = text(exec, 'interactiveMode');
  if (mode !== '') return mode;
  const v = text(exec, 'apiVersion');
  return v === `${EXEC_GROUP}/v1beta1` || v === `${EXEC_GROUP}/v1alpha1` ? 'IfAvailable' : '';
}

/** validateAuthInfo's problems after the client certificate's, in its order (impersonation's comes after). */
export function authProblems(name: string, user: Obj): string[] {
  const problems: string[] = [];
  const methods: string[] = [];
  if (text(user, 'token')) methods.push('token');
  if (text(user, 'username') || text(user, 'password')) methods.push('basicAuth');
  const exec = user['exec'];
  if (isObj(exec)) {
    if (isObj(user['auth-provider'])) problems.push(`authProvider cannot be provided in combination with an exec plugin for ${name}`);
    if (!text(exec, 'command')) problems.push(`command must be specified for ${name} to use exec authentication plugin`);
    if (!text(exec, 'apiVersion')) problems.push(`apiVersion must be specified for ${name} to use exec authentication plugin`);
    for (const e of Array.isArray(exec['env']) ? exec['env'] : []) {
      if (!isObj(e) || !text(e, 'name')) problems.push(`env variable name must be specified for ${name} to use exec authentication plugin`);
    }
    const mode = interactiveMode(exec);
    if (mode === '') problems.push(`interactiveMode must be specified for ${name} to use exec authentication plugin`);
    else if (!MODES.includes(mode)) problems.push(`invalid interactiveMode for ${name}: ${JSON.stringify(mode)}`);
  }
  if (methods.length > 1) problems.push(`more than one authentication method found for ${name}; found [${methods.join(' ')}], only one is allowed`);
  return problems;
}

/** What an exec plugin may be told of the cluster (rest.ConfigToExecCluster). */
export interface ExecClusterInfo {
  readonly server: string;
  readonly tlsServerName?: string | undefined;
  readonly insecureSkipTlsVerify: boolean;
  readonly ca?: Buffer | undefined;
  readonly proxyUrl?: string | undefined;
  readonly disableCompression: boolean;
  readonly extensions: unknown;
}

export interface UserAuth {
  /** A fixed bearer token (the user's `token`, when no token file is to be followed). */
  readonly token?: string;
  readonly credentials?: CredentialSource;
}

/**
 * The credentials of `user` (whose relative paths start at `dir`) for a TLS server; `hasCert` when
 * the user has a client certificate pair. Throws Error with client-go's text where it fails.
 */
export function userAuth(name: string, user: Obj, dir: string, hasCert: boolean, cluster: ExecClusterInfo): UserAuth {
  const token = text(user, 'token');
  const tokenFile = text(user, 'tokenFile') ? path.resolve(dir, text(user, 'tokenFile')) : '';
  let bearer = token;
  if (!token && tokenFile) {
    try {
      bearer = readFileSync(tokenFile, 'utf8');
    } catch (e) {
      throw new Error(osErrorText('open', tokenFile, e));
    }
  }
  const username = text(user, 'username');
  const password = text(user, 'password');
  const basic = username !== '' || password !== '';
  const exec = isObj(user['exec']) ? user['exec'] : undefined;
  const provider = isObj(user['auth-provider']) ? user['auth-provider'] : undefined;

  // TransportConfig: the exec authenticator is made (and its apiVersion checked) whatever else the user has.
  let execSource: CredentialSource | undefined;
  if (exec) {
    const apiVersion = text(exec, 'apiVersion');
    if (!EXEC_VERSIONS.includes(apiVersion)) throw new Error(`exec plugin: invalid apiVersion ${JSON.stringify(apiVersion)}`);
    if (!(bearer || tokenFile || basic || hasCert)) execSource = execAuthenticator(execConfig(exec, dir, cluster));
  }
  if (provider) throw new Error(authProviderError(name, text(provider, 'name')));

  // HTTPWrappersForConfig.
  if (basic && (bearer || tokenFile)) throw new Error('username/password or bearer token may be set, but not both');
  if (tokenFile) return { credentials: new TokenFileSource(tokenFile, bearer.trim()) };
  if (bearer) return { token: bearer };
  if (basic) return { credentials: fixedCredential({ authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` }) };
  return execSource ? { credentials: execSource } : {};
}

function execConfig(exec: Obj, dir: string, cluster: ExecClusterInfo): ExecConfig {
  const command = text(exec, 'command');
  const env = (Array.isArray(exec['env']) ? exec['env'] : []).filter(isObj).map((e) => ({ name: text(e, 'name'), value: text(e, 'value') }));
  return {
    // ResolveLocalPaths: a command with a path separator starts at the kubeconfig's directory; a bare name is looked up in $PATH.
    command: command.includes('/') ? path.resolve(dir, command) : command,
    args: (Array.isArray(exec['args']) ? exec['args'] : []).map((a) => (typeof a === 'string' ? a : '')),
    env,
    apiVersion: text(exec, 'apiVersion'),
    installHint: cleanAnsiEscapeCodes(text(exec, 'installHint')),
    interactiveMode: interactiveMode(exec) as InteractiveMode,
    ...(exec['provideClusterInfo'] === true ? { cluster: execCluster(cluster) } : {}),
  };
}

/** clientauthentication/v1's Cluster as encoding/json writes it (omitempty fields left out, config always there). */
function execCluster(c: ExecClusterInfo): Record<string, unknown> {
  const ext = Array.isArray(c.extensions) ? c.extensions.filter(isObj).find((e) => e['name'] === CLUSTER_EXTENSION) : undefined;
  return {
    server: c.server,
    ...(c.tlsServerName ? { 'tls-server-name': c.tlsServerName } : {}),
    ...(c.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(c.ca && c.ca.length > 0 ? { 'certificate-authority-data': c.ca.toString('base64') } : {}),
    ...(c.proxyUrl ? { 'proxy-url': c.proxyUrl } : {}),
    ...(c.disableCompression ? { 'disable-compression': true } : {}),
    config: ext?.['extension'] ?? null,
  };
}

/** rest.GetAuthProvider's answer for the providers kubectl v1.32 registers, and for any other name. */
function authProviderError(user: string, name: string): string {
  switch (name) {
    case 'gcp':
      return 'The gcp auth plugin has been removed.\nPlease use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.\nSee https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details';
    case 'azure':
      return 'The azure auth plugin has been removed.\nPlease use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead.\nSee https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details';
    case 'oidc':
      // kubectl still has it; plat does not refresh tokens through an issuer, and a user's
      // id-token alone expires within the hour.
      return `the oidc auth-provider of user ${JSON.stringify(user)} is not supported by plat: use an exec credential plugin instead (such as kubelogin: \`kubectl oidc-login get-token\`)`;
    default:
      return `no Auth Provider found for name ${JSON.stringify(name)}`;
  }
}
