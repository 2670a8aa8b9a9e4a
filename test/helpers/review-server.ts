// A fake API server on loopback over real TLS that answers every review POST (TokenReview,
// SubjectAccessReview) with whatever `answer` makes of the request body, 201 as the API server's
// create: for the delegating clients' handling of answers no real server would give.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ClientConnection } from '../../core/client/connection.js';
import { makeCa, makeServingCert } from './certs.js';

export interface ReviewServer {
  readonly connection: ClientConnection;
  close(): Promise<void>;
}

export async function startReviewServer(answer: (request: any) => unknown): Promise<ReviewServer> {
  const ca = makeCa();
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => { body += d.toString(); });
    req.on('end', () => { res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(answer(JSON.parse(body)))); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    connection: { server: new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`), ca: ca.certificatePem },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
