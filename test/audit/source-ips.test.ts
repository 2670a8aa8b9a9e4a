// An event's sourceIPs as utilnet.SourceIPs makes them: addresses parsed as netutils.ParseIPSloppy
// parses them and written as Go's net.IP.String writes them; and none at all (omitempty) for a
// request of the process's own in-process connection, which has no address.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { parseIp, sourceIps } from '../../core/audit/source-ips.js';
import { inProcessConnection } from '../../core/client/in-process.js';
import { RestClient } from '../../core/client/rest-client.js';
import { tapAuditBackend, type AuditEvent, type Plugin } from '../../core/plugin-api.js';
import { silentLogger } from '../../core/log.js';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { writePolicy } from './support.js';

describe('source IPs', () => {
  const cases: Array<[string, string | undefined]> = [
    ['10.0.0.1', '10.0.0.1'],
    [' 10.0.0.1 ', '10.0.0.1'],
    ['010.1.1.1', '10.1.1.1'],
    ['256.1.1.1', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4:80', undefined],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::ffff:10.9.9.9', '10.9.9.9'],
    ['::ffff:a09:909', '10.9.9.9'],
    ['::1', '::1'],
    ['fe80::1%eth0', undefined],
    ['example.com', undefined],
  ];
  for (const [input, want] of cases) it(`${JSON.stringify(input)} → ${want ?? 'dropped'}`, () => assert.equal(parseIp(input), want));

  it('the chain, X-Real-Ip, then the peer', () => {
    const req = (headers: Record<string, string>, remoteAddress?: string) => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;
    assert.deepEqual(sourceIps(req({ 'x-forwarded-for': '2001:DB8::1, 010.1.1.1, 1.2.3.4:80, ::ffff:10.9.9.9' }, '::ffff:127.0.0.1')), ['2001:db8::1', '10.1.1.1', '10.9.9.9', '127.0.0.1']);
    assert.deepEqual(sourceIps(req({ 'x-real-ip': '10.0.0.9' }, '10.0.0.9')), ['10.0.0.9']);
    assert.deepEqual(sourceIps(req({})), []);
  });

  it('an in-process request\'s event has no sourceIPs', async () => {
    const seen: AuditEvent[] = [];
    const capture: Plugin = {
      name: 'CaptureAudit',
      apply(host) {
        tapAuditBackend(host, 'CaptureAudit', { processEvents: (evs) => { seen.push(...evs); return true; } }, {
          mode: 'blocking', apiVersion: 'audit.platform/v1',
          batch: { bufferSize: 1, maxBatchSize: 1, maxBatchWait: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 },
        }, silentLogger);
      },
    };
    const policy = writePolicy(tempDir('plat-audit-ips-'), 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const plat = await startInProcess({ args: ['--controllers=', '--audit-policy-file', policy], plugins: [capture] });
    const client = new RestClient(inProcessConnection(plat.host!)!, { userAgent: 'in-process-ips' });
    try {
      await client.request('GET', '/version');
      const mine = seen.filter((e) => e.userAgent === 'in-process-ips');
      assert.ok(mine.length > 0);
      for (const e of mine) assert.equal('sourceIPs' in e, false, JSON.stringify(e));
      const tls = await plat.admin.get('/version', { 'user-agent': 'over-tls' });
      assert.equal(tls.status, 200);
      assert.deepEqual(seen.find((e) => e.userAgent === 'over-tls')?.sourceIPs, ['127.0.0.1']);
    } finally {
      client.close();
      await plat.stop();
    }
  });
});
