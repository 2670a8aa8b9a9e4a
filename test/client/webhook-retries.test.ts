// How often and for how long the token webhook and the authorization webhook try, as upstream's
// webhooks do: each attempt is one client-go Request.Do with the whole timeout to itself, inside
// which an answer asking for a retry (429, or a 5xx with Retry-After) is sent again after the
// server's wait, up to 10 times; around the attempts, the webhook's own backoff (injected here, so
// its waits are counted rather than slept) tries again what DefaultShouldRetry retries. One real
// HTTPS webhook on loopback answers each call with the next step of a script.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authorize } from '../../core/authz/authorize.js';
import { AuthorizationConfigPlugin } from '../../plugins/authorization-config/index.js';
import { createWebhookAuthorizer } from '../../plugins/authz-webhook/index.js';
import { createWebhookTokenAuthenticator } from '../../plugins/authn-webhook-token/index.js';
import { AuthorizationModeFlag, boot, request } from '../auth/support.js';
import { resourceAttrs, tempDir, writeKubeconfig } from '../authz/support.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { after as later, json, startScriptedServer, status, type ScriptedServer, type Step } from './scripted-server.js';
import { sleep as wait } from '../../core/abort-wait.js';
import { CANCELED, ContextError } from '../../core/server/request-signal.js';

/** One answer both webhooks read as yes: kind and apiVersion default to the review asked. */
const YES = json(200, { status: { authenticated: true, allowed: true, user: { username: 'alice' } } });
const OK = 'ok';

let dir: string;
let caPem: string;
let server: ScriptedServer;

before(async () => {
  dir = tempDir('plat-webhook-retries-');
  const ca = makeCa({ commonName: 'webhook-retries-ca' });
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  caPem = ca.certificatePem;
  server = await startScriptedServer({ cert: serving.certificatePem, key: serving.privateKeyPem });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A booted webhook: `ask` is 'ok' (authenticated or allowed) or the error; `sleeps` the backoff's waits. */
interface Booted { ask(): Promise<string>; readonly sleeps: number[]; readonly logs: string[] }

let files = 0;
/** An --authorization-config file with one Webhook entry (failurePolicy NoOpinion) asking `url`. */
function authorizationConfig(url: string, timeout: string): string {
  const file = join(dir, `authorization-${files++}.json`);
  writeFileSync(file, JSON.stringify({
    apiVersion: 'apiserver.platform/v1beta1', kind: 'AuthorizationConfiguration',
    authorizers: [{
      type: 'Webhook', name: 'reviewer',
      webhook: {
        timeout, subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: writeKubeconfig(dir, url, caPem) },
      },
    }],
  }));
  return file;
}

/** Each takes the webhook's URL and its timeout in whole seconds. */
const WEBHOOKS: Record<string, (url: string, timeout: number) => Booted> = {
  'token webhook': (url, timeout) => {
    const sleeps: number[] = [];
    const { host, logs } = boot([createWebhookTokenAuthenticator({ sleep: async (ms) => { sleeps.push(ms); }, timeoutMs: timeout * 1000 })],
      ['--authentication-token-webhook-config-file', writeKubeconfig(dir, url, caPem)]);
    return {
      sleeps, logs,
      async ask() {
        const req = request({ headers: { authorization: 'Bearer some-token-5ca1ab1e' } });
        const user = await host.hooks.authenticate.promise(req);
        return user?.name === 'alice' ? OK : String(req.reasons);
      },
    };
  },
  'authorization webhook': (url, timeout) => {
    const sleeps: number[] = [];
    const file = authorizationConfig(url, `${timeout}s`);
    const { host, logs } = boot([AuthorizationModeFlag, AuthorizationConfigPlugin, createWebhookAuthorizer({ sleep: async (ms) => { sleeps.push(ms); } })],
      [`--authorization-config=${file}`]);
    return {
      sleeps, logs,
      async ask() {
        try {
          const d = await authorize(host, resourceAttrs({ name: 'alice' }));
          return d?.decision === 'allow' ? OK : JSON.stringify(d);
        } catch (e) {
          return (e as Error).message;
        }
      },
    };
  },
};

interface Row {
  readonly what: string;
  readonly steps: readonly Step[];
  /** Seconds: more than a Retry-After of 1, which client-go waits out within the attempt's timeout. */
  readonly timeout: number;
  /** 'ok', or the error for the URL posted to (with its ?timeout=). */
  readonly outcome: (url: string) => string;
  /** Calls the webhook saw. */
  readonly calls: number;
  /** Waits of the webhook's backoff, between its attempts. */
  readonly backoffs: number;
  /** client-go's V(4) lines for its retries within an attempt, for the URL posted to. */
  readonly said: (url: string) => readonly string[];
}

const retryLine = (seconds: number, attempt: number) => (url: string) => `Got a Retry-After ${seconds}s response for attempt ${attempt} to ${url}`;

const busy = (after: string) => status(429, 'TooManyRequests', 'slow down', { 'retry-after': after });

const ROWS: readonly Row[] = [
  {
    what: '429 with Retry-After: 1, then the review: client-go sends it again after the server\'s wait, within the attempt',
    steps: [busy('1'), YES], timeout: 3, outcome: () => OK, calls: 2, backoffs: 0, said: (url) => [retryLine(1, 1)(url)],
  },
  {
    what: '503 with Retry-After: 1, then the review: the same (any 5xx that names a wait)',
    steps: [json(503, {}, { 'retry-after': '1' }), YES], timeout: 3, outcome: () => OK, calls: 2, backoffs: 0, said: (url) => [retryLine(1, 1)(url)],
  },
  {
    what: 'eleven 429s with Retry-After: 0: ten retries in the attempt, then the error goes to the backoff, whose next attempt succeeds',
    steps: [...Array<Step>(11).fill(busy('0')), YES], timeout: 1, outcome: () => OK, calls: 12, backoffs: 1,
    said: (url) => Array.from({ length: 10 }, (_, i) => retryLine(0, i + 1)(url)),
  },
  {
    what: 'the timeout is each attempt\'s: two slow attempts, together longer than it, succeed',
    steps: [later(600, status(500, 'InternalError', 'warming up')), later(600, YES)], timeout: 1, outcome: () => OK, calls: 2, backoffs: 1, said: () => [],
  },
  {
    what: 'a Retry-After that outlasts the timeout: the attempt ends at its deadline, which is not retried',
    steps: [busy('5')], timeout: 1, outcome: (url) => `Post "${url}": context deadline exceeded`, calls: 1, backoffs: 0,
    said: (url) => [retryLine(5, 1)(url)],
  },
];

for (const [webhook, start] of Object.entries(WEBHOOKS)) {
  describe(`the ${webhook}'s retries and timeout`, () => {
    for (const row of ROWS) {
      it(row.what, async () => {
        const url = `${server.url.origin}/review`;
        server.script(...row.steps);
        const b = start(url, row.timeout);
        assert.equal(await b.ask(), row.outcome(`${url}?timeout=${row.timeout}s`), b.logs.join('\n'));
        assert.equal(server.seen.length, row.calls, 'calls the webhook saw');
        assert.equal(b.sleeps.length, row.backoffs, `backoff waits: ${b.sleeps.join()}`);
        const said = b.logs.flatMap((l) => /\] (Got a Retry-After .*)$/.exec(l)?.[1] ?? []);
        assert.deepEqual(said, row.said(`${url}?timeout=${row.timeout}s`));
      });
    }
  });
}

// The caller's context bounds the attempts and the backoff together, as upstream hands its ctx to
// WithExponentialBackoff and to every Do: the token webhook's is the token cache's shared lookup
// (sharedLookupTimeout, 30s; shortened here), the authorizer's the request's. Once it has ended no
// attempt is made or retried: a webhook answering 429 for ever, or a backoff wait, no longer runs on
// for the per-attempt timeout several times over after the request has been answered.
describe('the caller\'s context bounds all of a review\'s attempts', () => {
  /** The backoff waits for real here (shortened), ending early with the context as the real one does. */
  const backoffWait = async (_ms: number, context?: AbortSignal) => { await wait(3000, context); };
  const token = (url: string, lookupTimeoutMs: number) => {
    const { host, logs } = boot([createWebhookTokenAuthenticator({ sleep: backoffWait, timeoutMs: 4000, lookupTimeoutMs })],
      ['--authentication-token-webhook-config-file', writeKubeconfig(dir, url, caPem)]);
    return {
      logs,
      async ask() {
        const req = request({ headers: { authorization: 'Bearer some-token-5ca1ab1e' } });
        const user = await host.hooks.authenticate.promise(req);
        return user?.name === 'alice' ? OK : String(req.reasons);
      },
    };
  };
  const authorizer = (url: string, context: AbortSignal) => {
    const file = authorizationConfig(url, '4s');
    const { host, logs } = boot([AuthorizationModeFlag, AuthorizationConfigPlugin, createWebhookAuthorizer({ sleep: backoffWait })],
      [`--authorization-config=${file}`]);
    return {
      logs,
      async ask() {
        try {
          const d = await authorize(host, resourceAttrs({ name: 'alice' }, { context }));
          return d?.decision === 'allow' ? OK : JSON.stringify(d);
        } catch (e) {
          return (e as Error).message;
        }
      },
    };
  };
  const cancelledAfter = (ms: number) => {
    const c = new AbortController();
    setTimeout(() => c.abort(new ContextError(CANCELED)), ms).unref();
    return c.signal;
  };
  const rows: readonly { what: string; steps: readonly Step[]; ask: (url: string) => { ask(): Promise<string>; logs: string[] }; outcome: (url: string) => string; calls: number }[] = [
    {
      what: 'token webhook: the shared lookup ends during a Retry-After wait: that attempt ends with its error, not retried',
      steps: [busy('1'), busy('1'), busy('1'), YES], ask: (url) => token(url, 1500),
      outcome: (url) => `Post "${url}": context deadline exceeded`, calls: 2,
    },
    {
      what: 'token webhook: the shared lookup ends during the backoff\'s wait: the last attempt\'s error, no further attempt',
      steps: [status(500, 'InternalError', 'warming up'), YES], ask: (url) => token(url, 1000),
      outcome: () => 'warming up', calls: 1,
    },
    {
      what: 'authorization webhook: the request\'s context ends (deadline) during a Retry-After wait',
      steps: [busy('1'), busy('1'), busy('1'), YES], ask: (url) => authorizer(url, AbortSignal.timeout(1500)),
      outcome: (url) => `Post "${url}": context deadline exceeded`, calls: 2,
    },
    {
      what: 'authorization webhook: the request\'s client goes away during a Retry-After wait: context canceled',
      steps: [busy('1'), busy('1'), busy('1'), YES], ask: (url) => authorizer(url, cancelledAfter(1500)),
      outcome: (url) => `Post "${url}": context canceled`, calls: 2,
    },
    {
      what: 'authorization webhook: the request\'s context ends during the backoff\'s wait: the last attempt\'s error',
      steps: [status(500, 'InternalError', 'warming up'), YES], ask: (url) => authorizer(url, AbortSignal.timeout(1000)),
      outcome: () => 'warming up', calls: 1,
    },
  ];
  for (const row of rows) {
    it(row.what, async () => {
      const url = `${server.url.origin}/review`;
      server.script(...row.steps);
      const b = row.ask(url);
      assert.equal(await b.ask(), row.outcome(`${url}?timeout=4s`), b.logs.join('\n'));
      assert.equal(server.seen.length, row.calls, 'calls the webhook saw');
    });
  }
});
