// The API server reached from inside its own process (`plat all`'s controllers) without a network:
// HTTP/1.1 over an in-memory stream pair, answered by the same Koa app as the secure port, so every
// request still goes through authentication, authorization, admission and the stores. What it
// leaves out is what a network needs and one process does not: TLS records, sockets and the
// kernel's loopback (measured: about a tenth of the server's CPU per certificate in
// `plat bench issue`, 5.1 -> 4.6 ms).
//
// Identity: the dialling side names the client certificate chain it presents, and the API
// server's authenticators verify that chain exactly as one received in a TLS handshake (against
// --client-ca-file, validity, usages). There is no handshake, so nothing proves possession of the
// key; none is needed, since only code running in this process can dial, and that code is handed
// the chain by the role that holds its key (host/roles/all.ts).
import http from 'node:http';
import { Duplex } from 'node:stream';
import type Koa from 'koa';
import { drainer } from './drain.js';

/** One end of an in-memory connection; the server's end carries the chain its client presents. */
export class InProcessSocket extends Duplex {
  peer: InProcessSocket | undefined;
  readonly remoteAddress = undefined;
  #idle: NodeJS.Timeout | undefined;
  /** The peer's write waiting for this side to read. */
  #unread: ((e?: Error | null) => void) | undefined;
  constructor(readonly peerChain: readonly Buffer[] = []) {
    super({ allowHalfOpen: false });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.#send(chunk, cb);
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (e?: Error | null) => void): void {
    this.#send(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)), cb);
  }

  #send(data: Buffer, cb: (e?: Error | null) => void): void {
    const peer = this.peer;
    if (!peer || peer.destroyed) return cb(new Error('in-process connection closed'));
    this.#idle?.refresh();
    peer.#idle?.refresh();
    // Backpressure, as a socket's: a reader that is not reading holds the writer's next write (a
    // slow watch client makes the server's response report a full buffer, not grow without bound).
    if (peer.push(data)) cb();
    else peer.#unread = cb;
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.peer?.push(null);
    cb();
  }

  override _read(): void {
    const waiting = this.#unread;
    this.#unread = undefined;
    waiting?.();
  }

  override _destroy(e: Error | null, cb: (e?: Error | null) => void): void {
    clearTimeout(this.#idle);
    const waiting = this.#unread;
    this.#unread = undefined;
    waiting?.(new Error('in-process connection closed'));
    const peer = this.peer;
    this.peer = undefined;
    if (peer && !peer.destroyed) {
      peer.push(null);
      peer.destroy();
    }
    cb(e);
  }

  /** The idle timeout in force (ms, 0: none), as net.Socket's; http.Agent compares it before resetting. */
  timeout = 0;

  /**
   * As net.Socket: 'timeout' after `ms` without data either way (request timeouts, keep-alive).
   * `setTimeout(0, cb)` removes `cb` again: node's http client clears each request's timeout
   * listener that way when a kept-alive connection goes back to the agent, so adding it here
   * instead piled up one listener per request (a leak, and a MaxListenersExceededWarning).
   */
  setTimeout(ms: number, cb?: () => void): this {
    if (this.destroyed) return this;
    this.timeout = ms;
    clearTimeout(this.#idle);
    this.#idle = undefined;
    if (ms > 0) {
      this.#idle = setTimeout(() => this.emit('timeout'), ms).unref();
      if (cb) this.once('timeout', cb);
    } else if (cb) {
      this.removeListener('timeout', cb);
    }
    return this;
  }

  // What http.Server and http.Agent call on a net.Socket; there is no kernel socket to tune.
  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }
  ref(): this { return this; }
  unref(): this { return this; }
}

export interface InProcessServer {
  /** A new connection to the server presenting `chain` (DER, leaf first) as its client certificates. */
  dial(chain: readonly Buffer[]): InProcessSocket;
  /** Later dials throw; the connections drain as the secure port's (drain.ts), cut after `timeoutMs` (default 0). */
  close(timeoutMs?: number): Promise<boolean>;
}

export function inProcessServer(app: Koa<any>, maxHeaderSize: number): InProcessServer {
  const server = http.createServer({ maxHeaderSize }, app.callback());
  const connections = drainer(server);
  let closed = false;
  return {
    dial(chain) {
      if (closed) throw new Error('the API server has shut down');
      const client = new InProcessSocket();
      const served = new InProcessSocket(chain);
      client.peer = served;
      served.peer = client;
      server.emit('connection', served);
      return client;
    },
    close(timeoutMs = 0) {
      closed = true;
      return connections.drain(timeoutMs);
    },
  };
}
