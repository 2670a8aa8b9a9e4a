// The URL source polls for the agent's life with the agent's own signal: once a poll is over,
// nothing of it may stay registered on that signal (AbortSignal.any kept one record per poll until
// the signal aborted, which for the agent's signal is never).
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { abortDependants as dependants } from '../../helpers/abort-dependants.js';
import { createLogger } from '../../../core/log.js';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';
import { HttpSource } from '../../../plugins/nodeagent-static-pods/http-source.js';

describe('the URL source\'s polls and the agent\'s signal', () => {
  let hang = false;
  const server = http.createServer((_req, res) => { if (!hang) res.writeHead(200).end('apiVersion: v1\nkind: PodList\nitems: []\n'); });
  let url = '';
  before(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => { url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pods`; r(); })));
  after(() => { server.closeAllConnections(); server.close(); });

  it('holds nothing of 30 finished polls, and still ends a poll in flight when the agent stops', async () => {
    const source = new HttpSource(url, {}, 'node-1', FeatureGates.defaults(), createLogger({ write: () => {} }));
    const agent = new AbortController();
    for (let i = 0; i < 30; i++) await source.poll(agent.signal);
    assert.equal(dependants(agent.signal), 0);
    assert.equal(getEventListeners(agent.signal, 'abort').length, 0);
    hang = true;
    const polling = source.poll(agent.signal);
    setTimeout(() => agent.abort(), 50);
    // A failed poll keeps the previous set (undefined) rather than waiting out the fetch timeout.
    assert.equal(await polling, undefined);
  });
});
