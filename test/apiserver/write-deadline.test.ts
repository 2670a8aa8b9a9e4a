// requestTimeoutUpperBound: a write's work has 34 s at most, whatever the request's own deadline
// (here ?timeout=50s). A create held in admission past that is answered by FinishRequest's Timeout
// (JSON, `request did not complete within requested timeout - context deadline exceeded`), not by
// the request's 504 (text/plain, `... within the allotted timeout`, at 50 s), and nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REQUEST_TIMEOUT_UPPER_BOUND_MS, writeContext } from '../../core/server/write-deadline.js';
import { DEADLINE_EXCEEDED } from '../../core/server/request-signal.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, CSR_PATH } from '../admission/support.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { holdingPlugin } from './holding-admission.js';

describe('writeContext', () => {
  it('keeps a request deadline that comes first, bounds a later one at 34 s, and ends with its parent', () => {
    const parent = new AbortController();
    const sooner = writeContext(parent.signal, 1_000 + 10_000, 1_000);
    assert.equal(sooner.signal, parent.signal);
    assert.equal(sooner.deadline, 11_000);
    const later = writeContext(parent.signal, 1_000 + 60_000, 1_000);
    assert.equal(later.deadline, 1_000 + REQUEST_TIMEOUT_UPPER_BOUND_MS);
    assert.notEqual(later.signal, parent.signal);
    const reason = new Error('context canceled');
    parent.abort(reason);
    assert.equal(later.signal!.reason, reason);
    later.release();
    assert.equal(writeContext(undefined, undefined).signal, undefined, 'a write plat makes itself has no context');
  });
});

describe('a write held past 34 s', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  before(async () => { plat = await startInProcess({ args: ['--controllers='], plugins: [hold.plugin] }); });
  after(async () => { hold.release(); await plat?.stop(); });

  it('is answered by FinishRequest\'s Timeout, before the request\'s own 50 s deadline, and not stored', { timeout: 120_000 }, async () => {
    const r = await plat.admin.post(`${CSR_PATH}?timeout=50s`, csrObject('hold-slow', 'example.com/slow', fixtures().ecCsrPem));
    hold.release();
    assert.equal(r.status, 504, r.text);
    assert.deepEqual([r.json.reason, r.json.message], ['Timeout', `Timeout: request did not complete within requested timeout - ${DEADLINE_EXCEEDED}`]);
    assert.equal((await plat.admin.get(`${CSR_PATH}/hold-slow`)).status, 404, 'the write was refused once its context ended');
  });
});
