// --goaway-chance, --strict-transport-security-directives, --cors-allowed-origins and the negative
// durations are checked after parsing as upstream's ServerRunOptions.Validate checks them: its words,
// all problems in one aggregate in its order, exit 2 from the command line; `plat all` the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { tempDir } from '../helpers/plat.js';

const HSTS_INVALID = '--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information';
const CORS_HELP = "List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring to the start with '^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";
const corsInvalid = (why: string) => `--cors-allowed-origins has an invalid regular expression: ${why}, help: ${CORS_HELP}`;
const NOT_PINNED = 'regular expression does not pin to start/end of host in the origin header';

const refusal = async (role: string, args: string[]) => {
  const r = await bootRefusal(role, ['--secure-port', '0', '--data-dir', tempDir('plat-filter-flags-'), ...args]);
  assert.equal(r.code, 2, r.stderr);
  const last = r.stderr.trimEnd().split('\n').at(-1)!;
  return last.slice(`plat ${role}: `.length);
};

describe('the handler chain filters\' flags, validated as upstream', () => {
  const cases: Array<[string, string[], string]> = [
    ['a goaway chance above 0.02', ['--goaway-chance=0.021'], '--goaway-chance can not be less than 0 or greater than 0.02'],
    ['a negative goaway chance', ['--goaway-chance=-0.001'], '--goaway-chance can not be less than 0 or greater than 0.02'],
    ['an HSTS directive that is none of the three', ['--strict-transport-security-directives=max-age=31536000,fakevalue'], HSTS_INVALID],
    ['max-age without a value', ['--strict-transport-security-directives=max-age'], HSTS_INVALID],
    ['a blank HSTS directive', ['--strict-transport-security-directives=max-age=1, '], 'empty value in strict-transport-security-directives'],
    ['two bad directives, said once', ['--strict-transport-security-directives=a,b=c=d'], HSTS_INVALID],
    ['an origin not pinned at its end', ['--cors-allowed-origins=^example\\.com'], corsInvalid(NOT_PINNED)],
    ['an origin pinned by `//` but not at its end', ['--cors-allowed-origins=//example\\.com'], corsInvalid(NOT_PINNED)],
    ['an origin not pinned at its start', ['--cors-allowed-origins=example\\.com$'], corsInvalid(NOT_PINNED)],
    ['an expression Go cannot compile, in Go\'s words', ['--cors-allowed-origins=^(https://example\\.com$'], corsInvalid('error parsing regexp: missing closing ): `^(https://example\\.com$`')],
    ['an escape Go does not know (JavaScript would take it)', ['--cors-allowed-origins=^https://\\dexample\\.com\\8$'], corsInvalid('error parsing regexp: invalid escape sequence: `\\8`')],
    ['a negative --request-timeout', ['--request-timeout=-1s'], '--request-timeout can not be negative value'],
    ['a negative --min-request-timeout', ['--min-request-timeout=-1'], '--min-request-timeout can not be negative value'],
    ['a negative --shutdown-delay-duration', ['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
    ['a negative --shutdown-watch-termination-grace-period, worded as upstream words it', ['--shutdown-watch-termination-grace-period=-1s'], 'shutdown-watch-termination-grace-period, if provided, can not be a negative value'],
    ['an empty origin in the list', ['--cors-allowed-origins=^https://a\\.test$,,//b\\.test:'], `empty value in --cors-allowed-origins, help: ${CORS_HELP}`],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what}`, async () => {
      assert.equal(await refusal('apiserver', args), message);
    });
  }

  it('gathers every problem in upstream\'s order, under plat all too', async () => {
    const args = ['--cors-allowed-origins=foo', '--strict-transport-security-directives=preload,max-age:1', '--shutdown-delay-duration=-2s', '--goaway-chance=1', '--min-request-timeout=-5', '--request-timeout=-1m'];
    const all = `[--request-timeout can not be negative value, --goaway-chance can not be less than 0 or greater than 0.02, --min-request-timeout can not be negative value, --shutdown-delay-duration can not be negative value, ${HSTS_INVALID}, ${corsInvalid(NOT_PINNED)}]`;
    assert.equal(await refusal('apiserver', args), all);
    assert.equal(await refusal('all', args), all);
  });
});
