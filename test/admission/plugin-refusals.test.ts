// What an admission plugin that refuses by throwing something other than a StatusError sends: 403
// Forbidden naming the object, with the thrown value as text (an Error's message, a string, or
// the JSON of any other value, never `[object Object]`); the log names the plugin at -v=2. A bug
// (a TypeError, say) is no refusal: 500 InternalError naming the plugin, as upstream answers a
// plugin that panics, and the log has the plugin and the stack at error level, never the object.
// So is a system error (ENOENT and its path). A Status error of another copy of plat (a plugin
// package with its own plat) is sent as it is, and a throw of undefined is a refusal naming the plugin.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { errors as Errors } from '../../core/api/errors.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrObject, CSR_PATH } from './support.js';

const PLUGIN_NAME = 'ThrowingAdmission';
const SLOW_NAME = 'SlowBugAdmission';

const thrown: Record<string, unknown> = {
  'an-error': new Error('refused by an Error'),
  'a-string': 'refused by a string',
  'an-object': { code: 7, why: 'policy' },
};

let releaseSlow: () => void = () => {};
const slowGate = new Promise<void>((resolve) => { releaseSlow = resolve; });
let slowReached: () => void = () => {};
const slowWaiting = new Promise<void>((resolve) => { slowReached = resolve; });

// A plugin package that installed its own plat: the same module loaded again (another URL) has
// its own StatusError class, which instanceof against the host's does not recognise.
const secondCopy = '../../core/api/errors.js?second-copy-of-plat';
const foreignErrors = ((await import(secondCopy)) as { errors: typeof Errors }).errors;
const MISSING_FILE = '/srv/plat-test-no-such-dir/policy.json';

const throwing: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    host.hooks.admitValidate.tapPromise(PLUGIN_NAME, async (req) => {
      if (req.resource !== 'certificatesigningrequests') return;
      if (req.name in thrown) throw thrown[req.name];
      if (req.name === 'a-foreign-status') {
        throw foreignErrors.invalid({ group: 'certificates.platform', kind: 'CertificateSigningRequest' }, req.name, [
          { type: 'FieldValueForbidden', field: 'spec.signerName', message: 'Forbidden: not on this cluster' },
        ]);
      }
      if (req.name === 'nothing') throw undefined;
      if (req.name === 'a-system-error') readFileSync(MISSING_FILE);
      if (req.name === 'a-bug') (req.object as unknown as { nope: { deeper: number } }).nope.deeper = 1;
    });
    // Written as a webhook: its answers are not read, and the first one is logged, once.
    host.hooks.admitMutate.tap('AnsweringAdmission', (req) => (req.name.startsWith('answered') ? { allowed: false } : undefined) as never);
    // Runs after ThrowingAdmission: a request waiting here must still be told apart from one
    // that ThrowingAdmission fails meanwhile.
    host.hooks.admitValidate.tapPromise(SLOW_NAME, async (req) => {
      if (req.resource !== 'certificatesigningrequests' || req.name !== 'a-slow-bug') return;
      slowReached();
      await slowGate;
      JSON.parse('{"token": "s3cret-value"');
    });
  },
};

describe('an admission plugin that throws', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  const fx = fixtures();
  before(async () => {
    plat = await startInProcess({ plugins: [throwing], args: ['-v', '2'], logger: createLogger({ write: (l) => logs.push(l) }) });
  });
  after(async () => { await plat?.stop(); });

  for (const [name, why] of [['an-error', 'refused by an Error'], ['a-string', 'refused by a string'], ['an-object', '{"code":7,"why":"policy"}']]) {
    it(`refuses with 403 and the text of ${name}`, async () => {
      const r = await plat.admin.post(CSR_PATH, csrObject(name!, 'example.com/my-signer', fx.ecCsrPem));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, `certificatesigningrequests.certificates.platform "${name}" is forbidden: ${why}`);
      const line = logs.find((l) => l.includes('admission plugin refused the request') && l.includes(`name="${name}"`));
      assert.ok(line?.startsWith('I') && line.includes(`plugin="${PLUGIN_NAME}" phase="admitValidate" operation="CREATE"`), line ?? logs.join('\n'));
    });
  }

  it('answers a bug with 500 naming the plugin, and logs the plugin and the stack', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('a-bug', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 500, r.text);
    assert.equal(r.json.reason, 'InternalError');
    assert.equal(r.json.message, `Internal error occurred: admission plugin "${PLUGIN_NAME}" failed (see the API server log)`);
    const line = logs.find((l) => l.startsWith('E') && l.includes('name="a-bug"'));
    assert.ok(line, logs.join('\n'));
    assert.match(line, new RegExp(`admission plugin failed plugin="${PLUGIN_NAME}" phase="admitValidate" operation="CREATE" resource="certificatesigningrequests.certificates.platform" name="a-bug" user="plat-admin" error="TypeError: Cannot set properties of undefined \\(setting 'deeper'\\)\\\\n    at `));
    assert.ok(!line.includes('"spec"') && !line.includes(fx.ecCsrPem.slice(40, 80)), 'the object is not logged');
  });

  it('names the plugin each request failed in when requests interleave, and keeps the text of a bug from the client', async () => {
    const slow = plat.admin.post(CSR_PATH, csrObject('a-slow-bug', 'example.com/my-signer', fx.ecCsrPem));
    await slowWaiting;
    const bug = await plat.admin.post(CSR_PATH, csrObject('a-bug', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(bug.status, 500, bug.text);
    releaseSlow();
    const r = await slow;
    assert.equal(r.status, 500, r.text);
    assert.equal(r.json.message, `Internal error occurred: admission plugin "${SLOW_NAME}" failed (see the API server log)`);
    assert.ok(!r.text.includes('s3cret'), r.text);
    assert.ok(logs.some((l) => l.startsWith('E') && l.includes(`plugin="${SLOW_NAME}"`) && l.includes('name="a-slow-bug"') && l.includes('SyntaxError')), logs.join('\n'));
  });

  it('sends a Status error of another copy of plat as it is', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('a-foreign-status', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.reason, 'Invalid');
    assert.equal(r.json.message, 'CertificateSigningRequest.certificates.platform "a-foreign-status" is invalid: spec.signerName: Forbidden: not on this cluster');
    assert.equal(r.json.details.causes[0].field, 'spec.signerName');
  });

  it('refuses with a message naming the plugin when it throws undefined', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('nothing', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, `certificatesigningrequests.certificates.platform "nothing" is forbidden: admission plugin "${PLUGIN_NAME}" refused without a reason (it threw undefined, not an Error)`);
    assert.ok(!r.text.includes('Tap function'), r.text);
  });

  it('answers a system error with 500, keeping the server\'s path from the client, and logs it with the plugin', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('a-system-error', 'example.com/my-signer', fx.ecCsrPem));
    assert.equal(r.status, 500, r.text);
    assert.equal(r.json.message, `Internal error occurred: admission plugin "${PLUGIN_NAME}" failed (see the API server log)`);
    assert.ok(!r.text.includes(MISSING_FILE), r.text);
    assert.ok(logs.some((l) => l.startsWith('E') && l.includes(`plugin="${PLUGIN_NAME}"`) && l.includes('name="a-system-error"') && l.includes('ENOENT')), logs.join('\n'));
  });

  it('a tap that answers instead of throwing admits, and its first answer is logged as a warning, once', async () => {
    logs.length = 0;
    for (const name of ['answered-1', 'answered-2']) {
      const r = await plat.admin.post(CSR_PATH, csrObject(name, 'example.com/my-signer', fx.ecCsrPem));
      assert.equal(r.status, 201, r.text);
    }
    const warned = logs.filter((l) => l.includes('admission plugin "ThrowingAdmission" (tap "AnsweringAdmission") answered an object from its admitMutate tap, which is not read'));
    assert.equal(warned.length, 1, logs.join('\n'));
    assert.match(warned[0]!, /^W/);
  });
});
