// A CSR name may hold `,` `=` or `\` (upstream validates no CSR name), and `plat csr get NAME -w`,
// `plat csr wait` and `create --wait` pin their list and watch to it with a field selector. They
// wrote `metadata.name=<name>` raw, so the API server read `a=b,c\d` as two terms and refused it
// (`Error from server (BadRequest): invalid selector: ...`); kubectl's OneTermEqualSelector escapes
// the value (fields.EscapeValue), as these do now. Against an in-process `plat all`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const NAME = 'a=b,c\\d';

describe('plat csr: a name with selector characters', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const csr = (...args: string[]) => runPlatAsync(['csr', ...args, '--kubeconfig', plat.kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  before(async () => {
    plat = await startInProcess();
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, NAME))).status, 201);
  });
  after(async () => { await plat?.stop(); });

  it('get NAME -w: the row, then the watch until --timeout', async () => {
    const r = await csr('get', NAME, '-w', '--timeout', '1s', '-o', 'name');
    assert.deepEqual([r.code, r.stderr, r.stdout], [0, '', `certificatesigningrequest.certificates.platform/${NAME}\n`]);
  });

  it('wait: the list and watch run, and the wait times out (the CSR is pending)', async () => {
    const r = await csr('wait', NAME, '--timeout', '1s');
    assert.deepEqual([r.code, r.stderr], [1, `plat csr wait: timed out after 1s waiting for certificate signing request "${NAME}" to be issued\n`]);
  });
});
