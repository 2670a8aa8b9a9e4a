// An https server on 127.0.0.1 that answers every request with its path and Authorization, and a
// kubeconfig reaching it through a proxy-url: for the proxy tests of plat's REST and webhook clients.
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { WebhookClient } from '../../core/client/webhook-client.js';
import { makeCa, makeServingCert } from './certs.js';
import { tempDir } from './plat.js';

export interface EchoServer { port: number; caPem: string; close(): void }

/** Serves a certificate for `localhost` and `ipSans` from a fresh CA. */
export async function echoServer(ipSans: string[]): Promise<EchoServer> {
  const ca = makeCa({ commonName: 'proxy-test-ca' });
  const serving = makeServingCert(ca, ['localhost'], ipSans);
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port, caPem: ca.certificatePem,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}

/** A kubeconfig for `server` through `proxyUrl`, trusting the echo server's CA, with the token `secret-t`. */
export function proxiedKubeconfig(server: string, proxyUrl: string, caPem: string): string {
  const file = path.join(tempDir(), 'k.conf');
  writeFileSync(file, [
    'clusters:',
    `- name: c\n  cluster: {server: "${server}", proxy-url: "${proxyUrl}", certificate-authority-data: ${Buffer.from(caPem).toString('base64')}}`,
    'users: [{name: u, user: {token: secret-t}}]',
    'contexts: [{name: x, context: {cluster: c, user: u}}]',
    'current-context: x',
  ].join('\n'));
  return file;
}

/** One request by each client (a REST GET of /api, a webhook POST): what the echo server saw. */
export async function askBothClients(conn: WebhookConnection): Promise<[unknown, unknown]> {
  const client = new RestClient(conn);
  try {
    const webhook = new WebhookClient({ connection: conn, backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 1 } });
    try {
      return [await client.request('GET', '/api'), await webhook.post('{}')];
    } finally {
      webhook.close();
    }
  } finally {
    client.close();
  }
}
