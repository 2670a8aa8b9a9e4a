import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { logUnauthenticated } from '../../core/authn/unauthenticated-log.js';
import { createLogger } from '../../core/log.js';

describe('logUnauthenticated (the log line of a 401 without a credential, on every endpoint)', () => {
  const request = { method: 'GET', path: '/readyz', req: { socket: { remoteAddress: '127.0.0.1' } } };
  const cases = [
    { name: 'no credentials, -v 0: not logged', verbosity: 0, line: undefined },
    { name: 'no credentials, -v 1: not logged', verbosity: 1, line: undefined },
    { name: 'no credentials, -v 2: logged', verbosity: 2,
      line: /request not authenticated method="GET" path="\/readyz" remote="127.0.0.1" refusedBy=\["no credentials and anonymous access is off"\]/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const lines: string[] = [];
      logUnauthenticated(createLogger({ verbosity: c.verbosity, write: (l) => lines.push(l) }), request);
      if (c.line) { assert.equal(lines.length, 1); assert.match(lines[0]!, c.line); } else assert.deepEqual(lines, []);
    });
  }
});
