// Go reads a connection's first TLS record header itself before any handshake: a client that is
// not speaking TLS gets no alert, and one sending plain HTTP gets net/http's 400 answer
// (server.go serve: tls.RecordHeaderError whose header looks like HTTP). OpenSSL would answer both
// with an alert, so each accepted socket is read here until its first record is whole, then
// handed, bytes put back, to the TLS server's own 'connection' handling (and every other listener
// of that event: the drain, idle and SNI bookkeeping see the socket from then on).
import type { Socket } from 'node:net';
import type tls from 'node:tls';
import { joinHostPort } from './bind-address.js';
import { looksLikeHttp, looksLikeTls, parseClientHello, RECORD_HEADER_LENGTH, recordLength, type ClientHello } from './client-hello.js';

const HTTP_TO_HTTPS = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';
/** A fatal unexpected_message alert in a TLS 1.0 record, as Go sends it before a version is agreed. */
const ALERT_UNEXPECTED_MESSAGE = Buffer.from([21, 3, 1, 0, 2, 2, 10]);
/** Go's maxCiphertext: a longer first record is refused by the TLS library anyway. */
const MAX_RECORD = RECORD_HEADER_LENGTH + 16384 + 2048;

/** A connection's two ends, as they were when it was accepted. */
export interface Peer { readonly local: string; readonly remote: string }

export interface FirstRecordScreen {
  /** The ClientHello the connection under a TLS socket opened with, when it was parsed. */
  helloOf(socket: tls.TLSSocket): ClientHello | undefined;
  /**
   * The ends of the connection under a TLS socket, read when it was accepted: by the time a
   * handshake error is reported the socket may be gone (the HTTP/2 server destroys it first), and a
   * destroyed socket no longer knows its peer. Go logs RemoteAddr, which it keeps.
   */
  peerOf(socket: Socket): Peer;
}

const peerNow = (socket: Socket): Peer => ({
  local: joinHostPort(socket.localAddress ?? '', socket.localPort ?? 0),
  remote: joinHostPort(socket.remoteAddress ?? '', socket.remotePort ?? 0),
});

/** Go's `read tcp local->remote: <what>` text. */
export const readError = (peer: Peer, what: string) => `read tcp ${peer.local}->${peer.remote}: ${what}`;

/**
 * Screens `server`'s connections from now on (before it listens). `report` gets Go's handshake
 * error text for connections ended here; a socket that sends nothing within `timeoutMs` is
 * dropped as Go's handshake deadline drops it. Sockets still being read when the server closes are cut.
 */
export function screenFirstRecord(server: tls.Server, timeoutMs: number, report: (peer: Peer, reason: string) => void): FirstRecordScreen {
  const screened = new WeakSet<Socket>();
  const hellos = new WeakMap<Socket, ClientHello>();
  const peers = new WeakMap<Socket, Peer>();
  /** Sockets still being read, with what stops reading them. */
  const reading = new Map<Socket, () => void>();
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  const handOver = (socket: Socket) => { screened.add(socket); emit('connection', socket); };

  const screen = (socket: Socket) => {
    const peer = peerNow(socket);
    peers.set(socket, peer);
    let buffered = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      reading.delete(socket);
      socket.off('readable', onReadable).off('end', onEnd).off('error', onError).off('close', finish);
    };
    reading.set(socket, finish);
    const refuse = (reason: string, answer?: Buffer | string) => {
      finish();
      report(peer, reason);
      // The peer may be gone already (a reset): the answer's write then fails, and an 'error'
      // without a listener would take the whole process down.
      socket.on('error', () => socket.destroy());
      if (answer === undefined) socket.destroy();
      else socket.end(answer, () => socket.destroy());
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = socket.read() as Buffer | null) !== null) buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < RECORD_HEADER_LENGTH) return;
      if (!looksLikeTls(buffered)) {
        if (looksLikeHttp(buffered)) refuse('client sent an HTTP request to an HTTPS server', HTTP_TO_HTTPS);
        else refuse('tls: first record does not look like a TLS handshake');
        return;
      }
      const whole = recordLength(buffered);
      if (buffered.length < whole && whole <= MAX_RECORD) return;
      const hello = parseClientHello(buffered.subarray(0, whole));
      // Go's clientHelloMsg.unmarshal fails on it, and the handshake with an unexpected_message alert.
      if (hello?.trailingDotName) return refuse('local error: tls: unexpected message', ALERT_UNEXPECTED_MESSAGE);
      finish();
      if (hello) hellos.set(socket, hello);
      socket.unshift(buffered);
      handOver(socket);
    };
    // Go's atLeastReader: an end at the record boundary is a plain EOF, inside a header an unexpected one.
    const onEnd = () => refuse(buffered.length === 0 ? 'EOF' : 'unexpected EOF');
    const onError = (e: NodeJS.ErrnoException) => refuse(e.code === 'ECONNRESET' ? readError(peer, 'read: connection reset by peer') : e.message);
    const timer = setTimeout(() => refuse(readError(peer, 'i/o timeout')), timeoutMs).unref();
    socket.on('readable', onReadable).once('end', onEnd).once('error', onError).once('close', finish);
  };

  server.emit = function (event: string | symbol, ...args: unknown[]): boolean {
    const socket = args[0] as Socket;
    if (event !== 'connection' || screened.has(socket)) return emit(event, ...args);
    screen(socket);
    return true;
  } as typeof server.emit;
  const close = server.close;
  server.close = function (this: tls.Server, cb?: (err?: Error) => void) {
    for (const [socket, finish] of [...reading]) {
      finish();
      socket.destroy();
    }
    return close.call(this, cb);
  } as typeof server.close;

  const raw = (s: Socket): Socket => (s as unknown as { _parent?: Socket })._parent ?? s;
  return {
    helloOf: (s) => hellos.get(raw(s)),
    peerOf: (s) => peers.get(raw(s)) ?? peerNow(s),
  };
}
