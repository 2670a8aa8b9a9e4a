// What a signer tap may answer, checked before anything is written: each unusable shape is an
// error saying what is wrong with it (logged and retried by the controller), never a guess.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSignerAnswer } from '../../plugins/csrsigning/signer-answer.js';

const CSR = '-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n-----END CERTIFICATE REQUEST-----\n';

describe('checkSignerAnswer', () => {
  const cases: { name: string; answer: unknown; want: { failed: { reason: string; message: string } } | undefined | RegExp }[] = [
    { name: 'no opinion', answer: undefined, want: undefined },
    { name: 'a failure', answer: { failed: { reason: 'Policy', message: 'no' } }, want: { failed: { reason: 'Policy', message: 'no' } } },
    { name: 'both a certificate and a failure', answer: { certificatePem: 'x', failed: { reason: 'X', message: 'y' } },
      want: /^the signer answered both a certificatePem and failed; an answer is one or the other \(answered by plugin "P"\)$/ },
    { name: 'a reason that is not a string', answer: { failed: { reason: 42, message: 'num' } },
      want: /^the signer answered failed without a reason: failed\.reason must be a string \(got number\) \(answered by plugin "P"\)$/ },
    { name: 'no message', answer: { failed: { reason: 'R' } },
      want: /^the signer answered failed without a message: failed\.message must be a string \(got undefined\)/ },
    { name: 'an empty reason', answer: { failed: { reason: '', message: 'm' } }, want: /^the signer answered failed with an empty reason/ },
    { name: 'something else', answer: { certificate: 'x' }, want: /^the signer answered neither a certificatePem nor a failed reason and message: an object with keys certificate/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.want instanceof RegExp) assert.throws(() => checkSignerAnswer(c.answer, CSR, 'plugin "P"'), { message: c.want });
      else assert.deepEqual(checkSignerAnswer(c.answer, CSR, 'plugin "P"'), c.want);
    });
  }
});
