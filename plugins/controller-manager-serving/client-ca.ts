// The client CA of the endpoint: --client-ca-file, or, when it is not given, the `client-ca-file`
// an API server publishes in ConfigMap extension-apiserver-authentication (upstream's
// lookupMissingConfigInCluster; kube-system renamed plat-system), read with the
// --authentication-kubeconfig credentials unless --authentication-skip-lookup. NotFound (also:
// an API server that serves no ConfigMaps, as plat's today) means "nothing published"; other
// failures are fatal unless --authentication-tolerate-lookup-failure. The request-header keys of
// that ConfigMap are not used: request-header authentication is not implemented here.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import type { Logger } from '../../core/log.js';

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
    throw new Error(`unable to load client CA file ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
  try {
    return parseCaBundle(text);
  } catch (e) {
    throw new Error(`unable to load client CA file ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
}

/** Reads the published client CA; undefined when nothing is published. Throws on failures. */
export async function lookupClientCa(client: RestClient, log: Logger): Promise<string | undefined> {
  let cm: { data?: Record<string, string> };
  try {
    cm = await client.request('GET', `/api/v1/namespaces/${AUTHENTICATION_CONFIGMAP_NAMESPACE}/configmaps/${AUTHENTICATION_CONFIGMAP}`);
  } catch (e) {
    if (isApiError(e) && e.code === 404) {
      log.warn(`Cluster doesn't provide client-ca-file in ${WHERE}, so client certificate authentication won't work.`);
      return undefined;
    }
    if (isApiError(e) && e.code === 403) {
      log.warn(`Unable to get ${WHERE}. Usually fixed by 'kubectl create rolebinding -n ${AUTHENTICATION_CONFIGMAP_NAMESPACE} ROLEBINDING_NAME --role=${READER_ROLE} --serviceaccount=YOUR_NS:YOUR_SA'`);
    }
    throw e;
  }
  const ca = cm.data?.['client-ca-file'];
  if (!ca) {
    log.warn(`Cluster doesn't provide client-ca-file in ${WHERE}, so client certificate authentication won't work.`);
    return undefined;
  }
  return parseCaBundle(ca);
}
