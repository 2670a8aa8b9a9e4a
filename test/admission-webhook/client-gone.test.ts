// A webhook call is made with the request's context, as upstream's dispatchers make it: when the
// client goes away the call ends at once (`context canceled`), not at the webhook's timeoutSeconds,
// and FinishRequest logs the request's end with that failure.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import { createLogger } from '../../core/log.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { logLines } from '../helpers/log-lines.js';
import { CSRS, webhook, WebhookServer, withConfiguration } from './support.js';

describe('a webhook call whose client goes away', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const logs = logLines();
  before(async () => { await server.start(); plat = await startInProcess({ logger: createLogger({ write: logs.write }) }); });
  after(async () => { await plat?.stop(); await server.stop(); });

  it('ends with the request\'s context, long before timeoutSeconds', async () => {
    server.on('/hang', () => 'hang');
    const hook = [webhook(server, 'hang.example.com', '/hang', { timeoutSeconds: 30, failurePolicy: 'Fail' })];
    await withConfiguration(plat.admin, 'ValidatingWebhookConfiguration', 'hang', hook, async () => {
      const pki = path.join(plat.dataDir, 'pki');
      const socket = tls.connect({
        host: '127.0.0.1', port: Number(new URL(plat.url).port), ALPNProtocols: ['http/1.1'],
        ca: readFileSync(path.join(pki, 'ca.crt'), 'utf8'), cert: readFileSync(path.join(pki, 'admin.crt'), 'utf8'), key: readFileSync(path.join(pki, 'admin.key'), 'utf8'),
      });
      await once(socket, 'secureConnect');
      const body = JSON.stringify(baseCsr(fixtures(), 'gone'));
      socket.write(`POST ${CSRS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      for (let i = 0; i < 100 && server.reviewsFor('/hang').length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.reviewsFor('/hang').length, 1, 'the webhook called');
      socket.destroy();
      const ended = await logs.waitFor('FinishRequest: post-timeout activity', 'the end of the create');
      assert.equal(ended.replace(/time-elapsed: \S+,/, 'time-elapsed: D,'),
        `FinishRequest: post-timeout activity - time-elapsed: D, panicked: false, err: Internal error occurred: failed calling webhook "hang.example.com": failed to call webhook: Post "https://127.0.0.1:${server.port}/hang?timeout=30s": context canceled, panic-reason: <nil>`);
      assert.equal((await plat.admin.get(`${CSRS}/gone`)).status, 404);
    });
  });
});
