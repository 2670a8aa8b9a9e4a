// JSON over keep-alive HTTP(S) for the load generator: one agent with a socket per concurrent
// worker, so no request waits for a socket and none pays a new TLS handshake once warm.
import http from 'node:http';
import https from 'node:https';

export interface JsonResponse { readonly status: number; readonly text: string; readonly json: any }

export interface JsonClientOptions {
  readonly sockets: number;
  /** TLS trust and client certificate (https URLs). */
  readonly tls?: { readonly ca?: Buffer | string; readonly cert?: Buffer | string; readonly key?: Buffer | string };
}

export class JsonClient {
  readonly #agent: http.Agent;
  readonly #secure: boolean;
  constructor(readonly base: URL, o: JsonClientOptions) {
    this.#secure = base.protocol === 'https:';
    this.#agent = this.#secure
      ? new https.Agent({ keepAlive: true, maxSockets: o.sockets, ...(o.tls?.ca ? { ca: o.tls.ca } : {}), ...(o.tls?.cert ? { cert: o.tls.cert } : {}), ...(o.tls?.key ? { key: o.tls.key } : {}) })
      : new http.Agent({ keepAlive: true, maxSockets: o.sockets });
  }

  request(method: string, path: string, body?: unknown): Promise<JsonResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = this.#secure ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const req = send(new URL(path, this.base), {
        method, agent: this.#agent, timeout: 120_000,
        headers: { accept: 'application/json', ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try { json = JSON.parse(text); } catch { json = undefined; }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 120 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void { this.#agent.destroy(); }
}
