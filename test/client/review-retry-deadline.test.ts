// What a review that ran out of time fails with, as upstream's webhook.WithExponentialBackoff: the
// last attempt's error when the timeout ends a wait between attempts, and client-go's
// `Post "<url>": context deadline exceeded` when it cuts an attempt short (a real server that
// accepts the request and never answers).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { ApiError, RestClient } from '../../core/client/rest-client.js';
import { withRetry } from '../../core/client/review-retry.js';
import { hang, startScriptedServer, type ScriptedServer } from './scripted-server.js';

describe('withRetry when the timeout passes', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  it('during the wait before a retry: the last attempt\'s error', async () => {
    const busy = new ApiError(500, 'InternalError', 'Internal error occurred: etcd is busy');
    let attempts = 0;
    await assert.rejects(
      withRetry(async () => { attempts++; throw busy; }, { timeoutMs: 100, backoff: { initialMs: 60_000, factor: 1.5, jitter: 0, steps: 5 } }),
      (e) => e === busy,
    );
    assert.equal(attempts, 1);
  });

  it('during an attempt: context deadline exceeded, naming the request', async () => {
    server.script(hang);
    const err = await withRetry((signal) => client.request('POST', '/apis/authentication.platform/v1/tokenreviews', { body: {}, ...(signal ? { signal } : {}) }), { timeoutMs: 200 })
      .then(() => undefined, (e: unknown) => e);
    assert.equal(goClientErrorText(err), `Post "${server.url.origin}/apis/authentication.platform/v1/tokenreviews": context deadline exceeded`);
  });
});
