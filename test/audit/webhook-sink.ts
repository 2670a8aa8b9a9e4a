// A real audit webhook on loopback over TLS (its own CA, a serving certificate for 127.0.0.1): it
// keeps every POST it gets (path, headers, the EventList) and answers each as `answer` says, by
// the attempt's number (1-based), so a test can fail some attempts and count them, or hold one.
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { waitUntil } from '../helpers/watch-stream.js';

export interface Received { url: string; headers: Record<string, string | string[] | undefined>; list: any }

export interface AuditSink {
  readonly received: Received[];
  /** A kubeconfig naming the sink at `/audit`, trusting its CA. */
  readonly kubeconfig: string;
  /** Every item received, attempts that failed included. */
  items(): any[];
  /** The events of one request (its ResponseComplete included) from attempts the sink accepted. */
  eventsOf(auditID: string, last?: string): Promise<any[]>;
  close(): Promise<void>;
}

export type Answer = { status: number; body?: string; contentType?: string };

export async function startAuditSink(dir: string, answer: (attempt: number) => Answer | Promise<Answer> = () => ({ status: 200 })): Promise<AuditSink> {
  const ca = makeCa();
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  const received: Received[] = [];
  const accepted: any[] = [];
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ url: req.url ?? '', headers: req.headers, list });
      void Promise.resolve(answer(received.length)).then((a) => {
        if (a.status >= 200 && a.status < 300) accepted.push(...list.items);
        res.writeHead(a.status, { 'content-type': a.contentType ?? 'text/plain' }).end(a.body ?? '');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const kubeconfig = path.join(dir, 'audit-webhook.conf');
  writeFileSync(kubeconfig, `apiVersion: v1
kind: Config
clusters: [{name: sink, cluster: {server: "https://127.0.0.1:${port}/audit", certificate-authority-data: "${Buffer.from(ca.certificatePem).toString('base64')}"}}]
users: [{name: plat, user: {token: audit-token}}]
contexts: [{name: sink, context: {cluster: sink, user: plat}}]
current-context: sink
`);
  return {
    received, kubeconfig,
    items: () => received.flatMap((r) => r.list.items),
    eventsOf: (auditID, last = 'ResponseComplete') => waitUntil(() => {
      const evs = accepted.filter((e) => e.auditID === auditID);
      return evs.some((e) => e.stage === last) ? evs : undefined;
    }, `the ${last} event of ${auditID} at the webhook`),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
