// Go's url.Error text for a request that got no answer: `Post "<url>": dial tcp <host:port>:
// connect: connection refused`, as client-go's errors and the texts built on them (a CSR create,
// a webhook call) read.
import type { SocketAddresses } from './socket-addresses.js';
import { tlsVerifyReason } from './tls-verify-error.js';
import { inspect } from 'node:util';

/**
 * What Go's net/http says after the URL for a transport failure: a dial that failed (refused, no
 * route, no network, timed out: client-go's dialer gives up after 30s as `i/o timeout`), a
 * connection that broke once made (`read tcp <local>-><remote>: read: connection reset by peer`,
 * the ends when the error carries them), a server that closed it before answering (Node's "socket
 * hang up", Go's `EOF`), or the TLS verification.
 */
export function goTransportReason(err: NodeJS.ErrnoException & SocketAddresses, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`;
  const conn = (op: 'read' | 'write') => err.localAddr && err.remoteAddr ? `${op} tcp ${err.localAddr}->${err.remoteAddr}: ` : '';
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${hostPort}: connect: connection refused`;
    case 'EHOSTUNREACH': return `dial tcp ${hostPort}: connect: no route to host`;
    case 'ENETUNREACH': return `dial tcp ${hostPort}: connect: network is unreachable`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ETIMEDOUT':
      if (err.syscall === 'connect') return `dial tcp ${hostPort}: i/o timeout`;
      return `${conn('read')}read: connection timed out`;
    case 'ECONNRESET':
      if (err.syscall === undefined && (err.message === 'socket hang up' || String(err.message).startsWith('Client network socket disconnected'))) return 'EOF';
      return `${conn('read')}read: connection reset by peer`;
    case 'EPIPE': return `${conn('write')}write: broken pipe`;
    default: return tlsVerifyReason(err) ?? err.message;
  }
}

/** url.Error's Op: the method with only its first letter capitalised (`Post`). */
const urlErrorOp = (method: string): string => method.slice(0, 1) + method.slice(1).toLowerCase();

/** `Post "<url>": <reason>`. */
export function goUrlErrorText(method: string, url: URL, err: NodeJS.ErrnoException): string {
  return `${urlErrorOp(method)} ${JSON.stringify(url.toString())}: ${goTransportReason(err, url)}`;
}

/** An Error's message; anything else as String() says it, or util.inspect where String() throws. */
function messageOf(e: unknown): string {
  try {
    return e instanceof Error ? String(e.message) : String(e);
  } catch {
    return inspect(e);
  }
}

/**
 * What client-go's error for a failed request reads as: a request that got no answer (the REST
 * client's errors name their method and URL) as url.Error's text, `Put "<url>": dial tcp
 * 127.0.0.1:6443: connect: connection refused`, which upstream's log lines and messages built on
 * the error show; any other error (an answer's Status) as its message.
 */
export function goClientErrorText(e: unknown): string {
  // Called in catch blocks (an authenticator's, an authorizer's) and log lines: it must not throw
  // itself, whatever was thrown (a URL that does not parse, a value that is no Error).
  try {
    const err = e as NodeJS.ErrnoException & { url?: unknown; method?: unknown };
    if (typeof err?.url === 'string' && typeof err.method === 'string') {
      if (URL.canParse(err.url)) return goUrlErrorText(err.method, new URL(err.url), err);
      return `${urlErrorOp(err.method)} ${JSON.stringify(err.url)}: ${messageOf(e)}`;
    }
  } catch {
    // Said below as whatever it is.
  }
  return messageOf(e);
}
