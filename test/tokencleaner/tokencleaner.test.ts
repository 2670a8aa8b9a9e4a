// The token cleaner against a real plat (the profile's controllers off, this one run on its own):
// expired bootstrap tokens of plat-system are deleted, an unparseable expiration counts as expired,
// one that expires a few seconds on is deleted when it does with no other event, and what is not a
// bootstrap token of plat-system, or has not expired, stays.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tokenCleanerController, TokenCleanerController } from '../../plugins/tokencleaner/index.js';
import { runController, type Harness } from '../csrapproving/harness.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { until } from '../controller-manager/support.js';
import { bootstrapToken, CLEANER, secretsOf, TOKEN_SECRET } from './support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const HOUR = 3600_000;

describe('token cleaner', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers=', '--enable-bootstrap-token-auth'] }); });
  after(async () => { await plat?.stop(); });

  const create = async (namespace: string, secret: object) => {
    const r = await plat.admin.post(secretsOf(namespace), secret);
    assert.equal(r.status, 201, r.text);
  };
  const exists = async (namespace: string, name: string) => (await plat.admin.get(`${secretsOf(namespace)}/${name}`)).status === 200;
  const authenticates = async (id: string) => (await plat.admin.with({ token: `${id}.${TOKEN_SECRET}` }).get(CSRS)).status !== 401;
  const synced = (h: Harness<any>, id: string) => h.lines.filter((l) => l.includes('Finished syncing secret') && l.includes(`secret="plat-system/bootstrap-token-${id}"`)).length;

  it('deletes expired and unparseable tokens, and one that expires later when it does; keeps the rest', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    await create('plat-system', bootstrapToken('expird', past));
    await create('plat-system', bootstrapToken('bardat', '2999-01-01'));
    await create('plat-system', bootstrapToken('future', new Date(Date.now() + HOUR).toISOString()));
    await create('plat-system', bootstrapToken('noexp0'));
    // Not bootstrap tokens of plat-system, though their `expiration` has passed.
    await create('plat-system', { ...bootstrapToken('opaque', past), type: 'Opaque' });
    await create('default', bootstrapToken('elsewh', past));
    // A few seconds on: still good now, gone once it expires without any other event on it.
    await create('plat-system', bootstrapToken('later0', new Date(Date.now() + 4000).toISOString()));
    assert.ok(await authenticates('later0'), 'the token works before it expires');

    const h = runController(plat, TokenCleanerController, CLEANER, { enabledByDefault: false });
    try {
      await until(async () => !(await exists('plat-system', 'bootstrap-token-expird')) && !(await exists('plat-system', 'bootstrap-token-bardat')), 'the expired tokens deleted');
      assert.ok(h.logged('Deleting expired secret', 'secret="plat-system/bootstrap-token-expird"'), h.lines.join('\n'));
      assert.ok(h.logged(`Expired bootstrap token in plat-system/bootstrap-token-expird Secret: ${past}`), h.lines.join('\n'));
      assert.ok(h.logged('Unparseable expiration time (2999-01-01) in plat-system/bootstrap-token-bardat Secret: parsing time "2999-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T". Treating as expired.'), h.lines.join('\n'));
      assert.ok(h.logged('Deleting expired secret', 'secret="plat-system/bootstrap-token-bardat"'), h.lines.join('\n'));

      await until(async () => !(await exists('plat-system', 'bootstrap-token-later0')), 'the later token deleted when it expired', 150);
      // Synced when listed, then again when its time came (the queue's delayed add, no event); that
      // sync logs its end after the delete's answer, which may come after the test sees the Secret gone.
      await until(async () => synced(h, 'later0') >= 2, `later0 synced twice:\n${h.lines.join('\n')}`);
      assert.ok(!(await authenticates('later0')), 'the deleted token no longer authenticates');

      for (const id of ['future', 'noexp0']) {
        assert.ok(synced(h, id) >= 1, `${id} looked at`);
        assert.ok(await exists('plat-system', `bootstrap-token-${id}`), `${id} kept`);
      }
      assert.ok(await authenticates('future'));
      assert.ok(await exists('plat-system', 'bootstrap-token-opaque'), 'another type of Secret is kept');
      assert.ok(await exists('default', 'bootstrap-token-elsewh'), 'a bootstrap token outside plat-system is kept');
      assert.ok(!h.lines.some((l) => l.includes('bootstrap-token-opaque') || l.includes('bootstrap-token-elsewh')), 'neither is queued');
      assert.equal(h.lines.filter((l) => l.includes('Deleting expired secret')).length, 3, h.lines.join('\n'));
    } finally {
      await h.stop();
    }
  });

  it('reads expiry on its own clock', async () => {
    // Two hours ahead, the token that expires in one has expired.
    const h = runController(plat, tokenCleanerController({ now: () => new Date(Date.now() + 2 * HOUR) }), CLEANER, { enabledByDefault: false });
    try {
      await until(async () => !(await exists('plat-system', 'bootstrap-token-future')), 'the token deleted on the clock ahead');
      assert.ok(await exists('plat-system', 'bootstrap-token-noexp0'), 'no expiration never expires');
    } finally {
      await h.stop();
    }
  });
});
