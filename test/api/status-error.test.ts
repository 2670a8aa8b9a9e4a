// A StatusError is an answer (404, 409, 422...), made without a stack trace because capturing one
// was most of its cost; what must hold is that the process's other errors keep theirs, since the
// panic log and the admission plugin failure log print them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errors, isStatusError, StatusError } from '../../core/api/errors.js';

const CSRS = { group: 'certificates.platform', resource: 'certificatesigningrequests' };

describe('StatusError', () => {
  it('keeps its message, Status and class, without stack frames', () => {
    const e = errors.notFound(CSRS, 'a');
    assert.ok(e instanceof Error && e instanceof StatusError && isStatusError(e));
    assert.equal(e.message, 'certificatesigningrequests.certificates.platform "a" not found');
    assert.deepEqual(e.status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'certificatesigningrequests.certificates.platform "a" not found', reason: 'NotFound',
      details: { name: 'a', group: 'certificates.platform', kind: 'certificatesigningrequests' }, code: 404,
    });
    assert.equal(e.stack, `Error: ${e.message}`);
  });

  it('leaves the stack trace limit as it was, so every other error keeps its frames', () => {
    for (const limit of [10, 3, 50]) {
      const before = Error.stackTraceLimit;
      Error.stackTraceLimit = limit;
      try {
        errors.conflict(CSRS, 'a', 'the object has been modified');
        new StatusError({ code: 500, message: 'm' });
        assert.equal(Error.stackTraceLimit, limit);
      } finally {
        Error.stackTraceLimit = before;
      }
    }
    errors.badRequest('x');
    const fault = new Error('a fault');
    assert.match(fault.stack ?? '', /\n {4}at /);
  });
});
