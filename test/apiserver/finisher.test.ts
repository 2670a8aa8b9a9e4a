// FinishRequest as upstream's asyncFinisher: the handler stops waiting for a write's work once
// the request's context ends (Timeout with ctx.Err()'s text), and the work's end is logged: an
// error it returned as `err`, what plat threw that is no API, storage or context error as the
// panic; a work still running after the wait (five minutes upstream, shortened here) as not
// returned, and nothing more about it after that.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errors } from '../../core/api/errors.js';
import { createLogger } from '../../core/log.js';
import { finishRequest, POST_TIMEOUT_LOGGER_WAIT_MS } from '../../core/server/finisher.js';
import { ContextError } from '../../core/server/request-signal.js';

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger({ write: (l) => lines.push(l) }) };
}
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ended = (text: string) => { const c = new AbortController(); c.abort(new ContextError(text)); return c.signal; };

describe('finishRequest', () => {
  it('waits five minutes for the work, as postTimeoutLoggerWait', () => assert.equal(POST_TIMEOUT_LOGGER_WAIT_MS, 300_000));

  it('passes the work\'s answer and error on while the context lasts, and logs nothing', async () => {
    const { lines, log } = capture();
    const live = new AbortController().signal;
    assert.equal(await finishRequest(live, log, async () => 7), 7);
    await assert.rejects(finishRequest(live, log, async () => { throw errors.badRequest('no'); }), /no/);
    assert.deepEqual(lines, []);
  });

  it('stops waiting once the context ends, with the Timeout upstream returns, and logs the work\'s error when it ends', async () => {
    const { lines, log } = capture();
    let finish!: () => void;
    const c = new AbortController();
    const answered = finishRequest(c.signal, log, () => new Promise<void>((r) => { finish = r; }).then(() => { throw new ContextError('context canceled'); }));
    c.abort(new ContextError('context canceled'));
    await assert.rejects(answered, (e: Error & { status?: { code: number; reason: string; message: string } }) => {
      assert.deepEqual([e.status?.code, e.status?.reason, e.status?.message], [504, 'Timeout', 'Timeout: request did not complete within requested timeout - context canceled']);
      return true;
    });
    assert.deepEqual(lines, []);
    finish();
    await later(20);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^E\d{4} [\d:.]+ plat\] Unhandled Error err="FinishRequest: post-timeout activity - time-elapsed: [0-9.]+[µm]?s, panicked: false, err: context canceled, panic-reason: <nil>"$/);
  });

  it('logs what plat threw that is no returned error as the panic', async () => {
    const { lines, log } = capture();
    await assert.rejects(finishRequest(ended('context deadline exceeded'), log, async () => { await later(5); throw new TypeError('x is not a function'); }), /deadline exceeded/);
    await later(40);
    assert.equal(lines.length, 1);
    const err = JSON.parse(lines[0]!.slice(lines[0]!.indexOf(' err=') + 5)) as string;
    assert.match(err, /^FinishRequest: post-timeout activity - time-elapsed: \S+, panicked: true, err: <nil>, panic-reason: TypeError: x is not a function\n {4}at /);
  });

  it('logs a work that has not ended after the wait as not returned, and nothing when it ends later', async () => {
    const { lines, log } = capture();
    let finish!: () => void;
    await assert.rejects(finishRequest(ended('context deadline exceeded'), log, () => new Promise<void>((r) => { finish = r; }), 50), /Timeout/);
    await later(150);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /^E\d{4} [\d:.]+ plat\] FinishRequest: post-timeout activity, waited for [0-9.]+ms, child goroutine has not returned yet$/);
    finish();
    await later(20);
    assert.equal(lines.length, 1, lines.join('\n'));
  });
});
