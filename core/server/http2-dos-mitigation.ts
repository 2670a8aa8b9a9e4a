// Feature gate UnauthenticatedHTTP2DOSMitigation (beta, on in 1.32): an HTTP/2 connection that
// carried a request from an anonymous user, or one answered 401, serves that request and no more.
// HTTP/2 is cheap to abuse (CVE-2023-44487, CVE-2023-39325), so upstream's WithAuthentication and
// Unauthorized set `Connection: close`, which Go's HTTP/2 server turns into a graceful GOAWAY; here
// the session is closed gracefully itself: streams already open finish, new ones are refused.
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP, type UserInfo } from '../authn/user.js';

export const HTTP2_DOS_MITIGATION_GATE = 'UnauthenticatedHTTP2DOSMitigation';

/** upstream's isAnonymousUser: the anonymous name or the unauthenticated group. */
export const isAnonymousUser = (u: UserInfo): boolean => u.name === ANONYMOUS_USER || u.groups.includes(UNAUTHENTICATED_GROUP);

/** Sends GOAWAY on `req`'s HTTP/2 connection; nothing for HTTP/1.x. */
export function limitHttp2Connection(req: IncomingMessage | Http2ServerRequest): void {
  if (req.httpVersionMajor !== 2) return;
  const session = (req as Http2ServerRequest).stream?.session;
  if (session && !session.closed && !session.destroyed) session.close();
}
