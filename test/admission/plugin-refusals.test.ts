// What an admission plugin that refuses by throwing something other than a StatusError sends: 403
// Forbidden naming the object, with the thrown value as text (an Error's message, a string, or
// the JSON of any other value, never `[object Object]`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrObject, CSR_PATH } from './support.js';

const PLUGIN_NAME = 'ThrowingAdmission';

const thrown: Record<string, unknown> = {
  'an-error': new Error('refused by an Error'),
  'a-string': 'refused by a string',
  'an-object': { code: 7, why: 'policy' },
};

const throwing: Plugin = {
  name: PLUGIN_NAME,
  apply(host) {
    host.hooks.admitValidate.tapPromise(PLUGIN_NAME, async (req) => {
      if (req.resource === 'certificatesigningrequests' && req.name in thrown) throw thrown[req.name];
    });
  },
};

describe('an admission plugin that throws', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startInProcess({ plugins: [throwing] }); });
  after(async () => { await plat?.stop(); });

  for (const [name, why] of [['an-error', 'refused by an Error'], ['a-string', 'refused by a string'], ['an-object', '{"code":7,"why":"policy"}']]) {
    it(`refuses with 403 and the text of ${name}`, async () => {
      const r = await plat.admin.post(CSR_PATH, csrObject(name!, 'example.com/my-signer', fx.ecCsrPem));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, `certificatesigningrequests.certificates.platform "${name}" is forbidden: ${why}`);
    });
  }
});
