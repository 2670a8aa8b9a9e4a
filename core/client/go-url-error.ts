// Go's url.Error text for a request that got no answer: `Post "<url>": dial tcp <host:port>:
// connect: connection refused`, as client-go's errors and the texts built on them (a CSR create,
// a webhook call) read.
import { tlsVerifyReason } from './tls-verify-error.js';

/** What Go's net/http says after the URL for a transport failure (the dial's, the TLS verification's). */
export function goTransportReason(err: NodeJS.ErrnoException, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`;
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET': return 'read: connection reset by peer';
    default: return tlsVerifyReason(err) ?? err.message;
  }
}

/** url.Error's Op: the method with only its first letter capitalised (`Post`). */
const urlErrorOp = (method: string): string => method.slice(0, 1) + method.slice(1).toLowerCase();

/** `Post "<url>": <reason>`. */
export function goUrlErrorText(method: string, url: URL, err: NodeJS.ErrnoException): string {
  return `${urlErrorOp(method)} ${JSON.stringify(url.toString())}: ${goTransportReason(err, url)}`;
}

/**
 * What client-go's error for a failed request reads as: a request that got no answer (the REST
 * client's errors name their method and URL) as url.Error's text, `Put "<url>": dial tcp
 * 127.0.0.1:6443: connect: connection refused`, which upstream's log lines and messages built on
 * the error show; any other error (an answer's Status) as its message.
 */
export function goClientErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { url?: unknown; method?: unknown };
  if (typeof err?.url === 'string' && typeof err.method === 'string') return goUrlErrorText(err.method, new URL(err.url), err);
  return e instanceof Error ? e.message : String(e);
}
