// The authorizers are asked with the request's context (Attributes.context), as upstream's
// WithAuthorization hands Authorize the request's ctx: a webhook authorizer's attempts end when the
// request's deadline passes or its client goes away, rather than running on after the 504. A
// watch is long-running: no deadline, but its context ends when its client goes away, so a webhook
// asked about it stops then. An access review hands its request's context on to the authorizers it
// asks, as upstream's REST Create does.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const PROBE = 'context-probe';

describe('the authorizers get the request\'s context', () => {
  /** What the probe saw of each context: how it ended while the authorizer waited on it. */
  const ended: (string | undefined)[] = [];
  const probe: Plugin = {
    name: 'ContextProbeForTests',
    apply(host) {
      // Before every other (the admin's group is allowed first). It waits, as a slow webhook would,
      // until the context ends (bounded), then has no opinion: the request goes on.
      host.hooks.authorize.tapPromise({ name: 'ContextProbeForTests', before: 'PrivilegedGroupsAuthorizer' }, async (a: Attributes) => {
        if (a.name !== PROBE) return undefined;
        const context = a.context;
        for (let i = 0; i < 100 && context && !context.aborted; i++) await new Promise((res) => setTimeout(res, 50));
        ended.push(context === undefined ? 'no context' : context.aborted ? (context.reason as Error).message : 'did not end');
        return undefined;
      });
    },
  };
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--request-timeout=1s'], plugins: [probe] }); });
  after(async () => { await plat?.stop(); });

  it('a request that is not long-running: the context ends at its deadline, while the authorizer is still deciding', async () => {
    ended.length = 0;
    const r = await plat.admin.get(`/apis/certificates.platform/v1/certificatesigningrequests/${PROBE}`);
    assert.equal(r.status, 504, r.text);
    for (let i = 0; i < 100 && ended.length === 0; i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(ended, ['context deadline exceeded']);
  });

  it('a watch: no deadline, and its context ends when its client goes away while the authorizer decides', async () => {
    ended.length = 0;
    const pki = path.join(plat.dataDir, 'pki');
    const socket = tls.connect({
      host: '127.0.0.1', port: Number(new URL(plat.url).port), ALPNProtocols: ['http/1.1'],
      ca: readFileSync(path.join(pki, 'ca.crt')), cert: readFileSync(path.join(pki, 'admin.crt')), key: readFileSync(path.join(pki, 'admin.key')),
    });
    await once(socket, 'secureConnect');
    socket.write(`GET /apis/certificates.platform/v1/certificatesigningrequests?watch=true&fieldSelector=metadata.name%3D${PROBE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    // Past --request-timeout (1s): a deadline would have ended it by now; only the client does.
    await new Promise((res) => setTimeout(res, 1500));
    assert.deepEqual(ended, [], 'the watch\'s authorization ended before its client went away');
    socket.destroy();
    for (let i = 0; i < 100 && ended.length === 0; i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(ended, ['context canceled']);
  });

  it('an access review: the authorizers it asks get the review request\'s context', async () => {
    ended.length = 0;
    const r = await plat.admin.post('/apis/authorization.platform/v1/subjectaccessreviews', {
      apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview',
      spec: { user: 'someone', resourceAttributes: { group: 'certificates.platform', resource: 'certificatesigningrequests', verb: 'get', name: PROBE } },
    });
    assert.equal(r.status, 504, r.text);
    for (let i = 0; i < 100 && ended.length === 0; i++) await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(ended, ['context deadline exceeded']);
  });
});
