// A watch client that stops reading: the server stops taking events for it, so they wait in the
// storage watch, which ends a watcher more than its buffer limit behind (the client watches again
// from the last revision it saw). Before, the server kept writing into the response, which grew
// without bound in the API server's memory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, directWatch, type DirectWatch } from './direct-watch.js';

const BUFFER_LIMIT = 50;
const OBJECTS = 1500;

describe('watch backpressure', () => {
  let w: DirectWatch;
  before(async () => { w = await directWatch({ watchBufferLimit: BUFFER_LIMIT }); });
  after(() => w?.close());

  it('ends the watch of a client that stops reading once it is more than the buffer limit behind', async () => {
    const socket = await w.open({ sendInitialEvents: false }, true);
    for (let i = 0; i < OBJECTS; i++) {
      await w.store.create(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${i}` } });
    }
    // Now read everything the server sent, until it ends the response (or, as before, never does).
    let text = '';
    socket.on('data', (b: Buffer) => { text += b.toString('latin1'); });
    socket.resume();
    const ended = await new Promise<boolean>((resolve) => {
      const check = setInterval(() => { if (text.endsWith('\r\n0\r\n\r\n')) { clearInterval(check); clearTimeout(give); resolve(true); } }, 20);
      const give = setTimeout(() => { clearInterval(check); resolve(false); }, 10_000);
    });
    const delivered = text.match(/"type":"ADDED"/g)?.length ?? 0;
    assert.ok(ended, `the watch is still open after ${delivered} of ${OBJECTS} events reached the client that did not read`);
    assert.ok(delivered < OBJECTS, `all ${OBJECTS} events were held for the client`);
    assert.ok(delivered > BUFFER_LIMIT, `${delivered} events delivered: the watch ended before the buffer filled`);
    // The events it did get are the first ones, in order, with nothing skipped.
    const names = [...text.matchAll(/"name":"(ns-\d+)"/g)].map((m) => m[1]);
    assert.deepEqual(names, Array.from({ length: names.length }, (_, i) => `ns-${i}`));
    // Logged as upstream logs it, at V(1), with the cause.
    const line = w.lines.find((l) => l.includes('Forcing namespaces watcher close due to unresponsiveness'));
    assert.ok(line, `no log line about the ended watch in:\n${w.lines.join('\n')}`);
    assert.match(line, /fell more than 50 events behind/);
  });
});
