// The URL source after an empty body: upstream sends the empty set and returns before remembering
// the data, so when the body from before the empty one comes back it is still "unchanged" and its
// pods stay gone; only new content brings pods back.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../../core/log.js';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';
import { HttpSource } from '../../../plugins/nodeagent-static-pods/http-source.js';

const manifest = (image: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: ${image}}]\n`;

describe('the URL source after an empty body', () => {
  let body = '';
  const server = http.createServer((_req, res) => { res.writeHead(200).end(body); });
  let url = '';
  before(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => { url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pods`; r(); })));
  after(() => { server.close(); });

  it('treats the old body as unchanged, as upstream does, until the content changes', async () => {
    const source = new HttpSource(url, {}, 'node-1', FeatureGates.defaults(), createLogger({ write: () => {} }));
    const images = (pods: Record<string, any>[] | undefined) => pods?.map((p) => p['spec']['containers'][0].image as string);
    const steps: [string, string[] | undefined][] = [
      // body served, what the poll sets (undefined: the previous set is kept)
      [manifest('nginx:1'), ['nginx:1']],
      ['', []],
      [manifest('nginx:1'), undefined],
      [manifest('nginx:2'), ['nginx:2']],
    ];
    for (const [served, want] of steps) {
      body = served;
      assert.deepEqual(images(await source.poll()), want, JSON.stringify(served));
    }
  });
});
