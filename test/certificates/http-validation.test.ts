// Every rule of spec 01's tables, sent over HTTPS to a running plat: the same table the strategy
// unit test replays (cases.ts), here through decode, the generic store and the real endpoints.
// A failure must come back as a Status with the expected code, reason and field path.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrCases } from './cases.js';
import { baseCsr, fixtures } from './fixtures.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const subPath = (name: string, sub?: string) => `${P}/${name}${sub ? `/${sub}` : ''}`;

describe('spec 01 rules over HTTP', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  csrCases(fx).forEach((c, i) => {
    it(`${c.op}${c.subresource ? ` /${c.subresource}` : ''}: ${c.name}`, async () => {
      const name = `case-${i}`;
      let res;
      if (c.op === 'create') {
        const obj = baseCsr(fx, name);
        c.mutate(obj);
        res = await plat.admin.post(P, obj);
      } else {
        const created = await plat.admin.post(P, baseCsr(fx, name));
        assert.equal(created.status, 201, created.text);
        for (const step of c.setup ?? []) {
          const cur = (await plat.admin.get(subPath(name, step.subresource))).json;
          step.mutate(cur);
          const r = await plat.admin.put(subPath(name, step.subresource), cur);
          assert.equal(r.status, 200, `setup step failed: ${r.text}`);
        }
        const cur = (await plat.admin.get(subPath(name, c.subresource))).json;
        c.mutate(cur);
        res = await plat.admin.put(subPath(name, c.subresource), cur);
      }
      if ('ok' in c.expect) {
        assert.ok(res.status === 200 || res.status === 201, res.text);
        const stored = (await plat.admin.get(subPath(name))).json;
        c.expect.check?.(stored);
        return;
      }
      const expect = c.expect;
      const code = expect.code ?? 422;
      assert.equal(res.status, code, res.text);
      assert.equal(res.json.kind, 'Status');
      assert.equal(res.json.code, code);
      if (code === 422) {
        assert.equal(res.json.reason, 'Invalid');
        assert.equal(res.json.details.kind, 'CertificateSigningRequest');
        assert.equal(res.json.details.group, 'certificates.platform');
        assert.equal(res.json.details.name, name);
        const causes = res.json.details.causes as { field: string; message: string }[];
        const cause = causes.find((x) => x.field === expect.field);
        assert.ok(cause, `no cause for ${expect.field} in ${JSON.stringify(causes)}`);
        if (typeof expect.message === 'string') assert.equal(cause.message, expect.message);
        else assert.match(cause.message, expect.message);
        assert.match(res.json.message, new RegExp(`^CertificateSigningRequest\\.certificates\\.platform "${name}" is invalid: `));
      }
    });
  });
});
