// The semantic comparison CertificateSigning uses for status.conditions (apiequality.Semantic
// upstream), case by case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conditionsEqual } from '../../plugins/admission-certificates/conditions-equal.js';

const base = { type: 'Failed', status: 'True', reason: 'R', message: 'm', lastUpdateTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-02T03:04:05Z' };

describe('conditionsEqual', () => {
  const cases: [string, unknown[], unknown[], boolean][] = [
    ['both empty', [], [], true],
    ['identical', [base], [{ ...base }], true],
    ['the same instant in another offset', [base], [{ ...base, lastUpdateTime: '2026-01-02T04:04:05+01:00' }], true],
    ['absent string and empty string', [{ ...base, message: undefined }], [{ ...base, message: '' }], true],
    ['absent time and null time', [{ ...base, lastTransitionTime: undefined }], [{ ...base, lastTransitionTime: null }], true],
    ['a condition added', [], [base], false],
    ['a different message', [base], [{ ...base, message: 'other' }], false],
    ['a different status', [base], [{ ...base, status: 'False' }], false],
    ['a later time', [base], [{ ...base, lastUpdateTime: '2026-01-02T03:04:06Z' }], false],
    ['a time set where there was none', [{ ...base, lastUpdateTime: null }], [base], false],
    ['an unparseable time', [{ ...base, lastUpdateTime: 'soon' }], [{ ...base, lastUpdateTime: 'soon' }], false],
    ['reordered conditions', [base, { ...base, type: 'Custom' }], [{ ...base, type: 'Custom' }, base], false],
    ['an extra field', [base], [{ ...base, extra: 'x' }], false],
  ];
  for (const [what, a, b, equal] of cases) {
    it(`${what}: ${equal ? 'equal' : 'different'}`, () => {
      assert.equal(conditionsEqual(a, b), equal);
      assert.equal(conditionsEqual(b, a), equal, 'symmetric');
    });
  }
});
