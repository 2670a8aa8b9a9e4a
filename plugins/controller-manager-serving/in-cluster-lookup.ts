// The endpoint's client CA and request-header settings: from the flags, or, for what the flags
// leave out, from what an API server publishes in ConfigMap extension-apiserver-authentication
// (upstream's lookupMissingConfigInCluster; kube-system renamed plat-system), read with the
// --authentication-kubeconfig credentials unless --authentication-skip-lookup. NotFound (also: an
// API server that serves no ConfigMaps, as plat's today) means "nothing published"; other failures
// are fatal unless --authentication-tolerate-lookup-failure (the caller decides).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RequestHeaderSettings } from '../../core/authn/request-header.js';
import { parseCaBundle as parseRoots } from '../../core/authn/x509/index.js';
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import type { Logger } from '../../core/log.js';
import { osErrorText } from '../../core/go-os-error.js';

export const AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';
export const AUTHENTICATION_CONFIGMAP_NAMESPACE = 'plat-system';
const READER_ROLE = 'extension-apiserver-authentication-reader';
const WHERE = `configmap/${AUTHENTICATION_CONFIGMAP} in ${AUTHENTICATION_CONFIGMAP_NAMESPACE}`;

/** The certificates of a PEM bundle; throws naming the problem when there are none or one is bad. */
export function parseCaBundle(pem: string): string {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  for (const b of blocks) new X509Certificate(b);
  return blocks.join('\n') + '\n';
}

export function readClientCaFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    // DelegatingAuthenticationOptions.ApplyTo's wrapper around NewDynamicCAContentFromFile's read error.
    throw new Error(`unable to load client CA provider: ${osErrorText('open', file, e)}`);
  }
  try {
    return parseCaBundle(text);
  } catch (e) {
    throw new Error(`unable to load client CA file ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
}

export interface Missing {
  readonly clientCa: boolean;
  readonly requestHeader: boolean;
}

export interface Published {
  readonly clientCa?: string;
  readonly requestHeader?: RequestHeaderSettings;
}

/** Upstream's warnings when there is no client to look anything up with. */
export function warnNoLookupClient(missing: Missing, log: Logger): void {
  if (missing.clientCa) log.warn(`No authentication-kubeconfig provided in order to lookup client-ca-file in ${WHERE}, so client certificate authentication won't work.`);
  if (missing.requestHeader) log.warn(`No authentication-kubeconfig provided in order to lookup requestheader-client-ca-file in ${WHERE}, so request-header client certificate authentication won't work.`);
}

/**
 * Reads what is published for the missing parts, warning for each part nobody provides. Throws on
 * failures; `signal` abandons the read (start-up stopped while the API server does not answer).
 */
export async function lookupMissing(client: RestClient, missing: Missing, log: Logger, signal?: AbortSignal): Promise<Published> {
  let data: Record<string, string> | undefined;
  try {
    const cm = await client.request<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${AUTHENTICATION_CONFIGMAP_NAMESPACE}/configmaps/${AUTHENTICATION_CONFIGMAP}`, signal ? { signal } : {});
    data = cm.data ?? {};
  } catch (e) {
    if (!(isApiError(e) && e.code === 404)) {
      if (isApiError(e) && e.code === 403) {
        log.warn(`Unable to get ${WHERE}. Usually fixed by 'kubectl create rolebinding -n ${AUTHENTICATION_CONFIGMAP_NAMESPACE} ROLEBINDING_NAME --role=${READER_ROLE} --serviceaccount=YOUR_NS:YOUR_SA'`);
      }
      throw e;
    }
  }
  const out: { clientCa?: string; requestHeader?: RequestHeaderSettings } = {};
  if (missing.clientCa) {
    const ca = data?.['client-ca-file'];
    if (ca) out.clientCa = parseCaBundle(ca);
    else log.warn(`Cluster doesn't provide client-ca-file in ${WHERE}, so client certificate authentication won't work.`);
  }
  if (missing.requestHeader) {
    const ca = data?.['requestheader-client-ca-file'];
    if (ca) out.requestHeader = publishedRequestHeader(data!, ca);
    else log.warn(`Cluster doesn't provide requestheader-client-ca-file in ${WHERE}, so request-header client certificate authentication won't work.`);
  }
  return out;
}

/** inClusterRequestHeader: the list keys are JSON arrays of strings; an absent key is an empty list. */
function publishedRequestHeader(data: Record<string, string>, ca: string): RequestHeaderSettings {
  return {
    roots: parseRoots(ca, `unable to load requestheader-client-ca-file of ${WHERE}`),
    allowedNames: jsonList(data, 'requestheader-allowed-names'),
    names: {
      username: jsonList(data, 'requestheader-username-headers'),
      uid: jsonList(data, 'requestheader-uid-headers'),
      group: jsonList(data, 'requestheader-group-headers'),
      extraPrefixes: jsonList(data, 'requestheader-extra-headers-prefix'),
    },
  };
}

function jsonList(data: Record<string, string>, key: string): string[] {
  const text = data[key];
  if (!text) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${key} of ${WHERE}: ${(e as Error).message}`);
  }
  if (v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`${key} of ${WHERE}: not a JSON array of strings`);
  return v as string[];
}
