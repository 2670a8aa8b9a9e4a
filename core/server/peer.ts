// The client certificate chain of a request's TLS connection (HTTP/1.1 or HTTP/2), read once per
// connection; or the chain an in-process connection presents (in-process.ts).
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { InProcessSocket } from './in-process.js';

const cache = new WeakMap<TLSSocket, { leaf: DetailedPeerCertificate | undefined; chain: Buffer[] }>();

function tlsSocket(req: IncomingMessage | Http2ServerRequest): TLSSocket | undefined {
  const h2 = (req as Http2ServerRequest).stream?.session?.socket as TLSSocket | undefined;
  const sock = h2 ?? (req.socket as TLSSocket | undefined);
  return sock && typeof sock.getPeerCertificate === 'function' ? sock : undefined;
}

export function peerCertificates(req: IncomingMessage | Http2ServerRequest): { leaf: DetailedPeerCertificate | undefined; chain: readonly Buffer[] } {
  if (req.socket instanceof InProcessSocket) return { leaf: undefined, chain: req.socket.peerChain };
  const sock = tlsSocket(req);
  if (!sock) return { leaf: undefined, chain: [] };
  let entry = cache.get(sock);
  if (!entry) {
    const leaf = sock.getPeerCertificate(true);
    const chain: Buffer[] = [];
    if (leaf && leaf.raw) {
      let c: DetailedPeerCertificate | undefined = leaf;
      const seen = new Set<string>();
      while (c && c.raw && !seen.has(c.fingerprint256)) {
        seen.add(c.fingerprint256);
        chain.push(c.raw);
        c = c.issuerCertificate;
      }
    }
    entry = { leaf: leaf && leaf.raw ? leaf : undefined, chain };
    cache.set(sock, entry);
  }
  return entry;
}
