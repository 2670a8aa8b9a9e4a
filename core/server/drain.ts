// A graceful stop of an HTTP server, as Go's http.Server.Shutdown that upstream's servers run
// (secure_serving.go RunServer): the listener closes, so new connections are refused; HTTP/2
// connections get a GOAWAY and keep the streams they have open; HTTP/1.1 connections close once
// idle, at once or after the response in progress (which then says `Connection: close`, as Go's
// server stops keep-alives when shutting down). Shutdown's context is the timeout: past it the
// connections left are cut (upstream's process exits with them).
import type http from 'node:http';
import type http2 from 'node:http2';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { setLongTimeout } from '../long-timeout.js';

type AnyServer = http.Server | http2.Http2SecureServer;

export interface Drainer {
  /** Stops accepting and closes each connection once idle; resolves false when the timeout cut some. */
  drain(timeoutMs: number): Promise<boolean>;
}

/** Tracks `server`'s connections from now on (call before it listens). */
export function drainer(server: AnyServer): Drainer {
  const secure = server instanceof tls.Server;
  // Every connection, TLS handshakes still in progress included: the drain ends when none is left.
  const open = new Set<Duplex>();
  // The ones speaking HTTP/1.1, with their responses in progress.
  const http1 = new Map<Duplex, Set<http.ServerResponse>>();
  const sessions = new Set<http2.ServerHttp2Session>();
  let draining = false;
  let allClosed: (() => void) | undefined;

  const forget = (c: Duplex) => {
    open.delete(c);
    if (open.size === 0) allClosed?.();
  };
  server.on('connection', (c: Duplex) => {
    open.add(c);
    if (!secure) http1.set(c, new Set());
    c.once('close', () => { http1.delete(c); forget(c); });
  });
  server.on('secureConnection', (s: tls.TLSSocket) => {
    if (s.alpnProtocol === 'h2') return;
    open.add(s);
    http1.set(s, new Set());
    s.once('close', () => { http1.delete(s); forget(s); });
  });
  server.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
    if (draining) s.close();
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.httpVersionMajor >= 2) return;
    const socket = req.socket;
    const busy = http1.get(socket);
    if (!busy) return;
    busy.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      busy.delete(res);
      // A response whose headers went out before the drain began promised keep-alive: the
      // connection closes after it instead.
      if (draining && busy.size === 0) socket.end();
    });
  });

  return {
    drain: (timeoutMs) => {
      draining = true;
      if (server.listening) server.close();
      for (const s of sessions) s.close();
      for (const [c, busy] of http1) {
        if (busy.size === 0) c.destroy();
        for (const res of busy) if (!res.headersSent) res.shouldKeepAlive = false;
      }
      if (open.size === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        // --request-timeout may be longer than a Node timer holds (about 24.8 days).
        const cancel = setLongTimeout(() => {
          allClosed = undefined;
          for (const s of sessions) s.destroy();
          for (const c of open) c.destroy();
          resolve(false);
        }, timeoutMs);
        allClosed = () => { cancel(); resolve(true); };
      });
    },
  };
}
