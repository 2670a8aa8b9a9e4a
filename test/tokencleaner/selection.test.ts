// The token cleaner in plat controller-manager: off by default, as upstream's (told of as disabled,
// no health check); `--controllers=*,tokencleaner` runs it, and under
// --use-service-account-credentials its deletes are made as plat-system/token-cleaner, which the
// bootstrap Role system:controller:token-cleaner (plat-system only) allows under RBAC.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { adminKubeconfig, startControllerManager, until } from '../controller-manager/support.js';
import { bootstrapToken, CLEANER, secretsOf } from './support.js';

/** Who asked to delete a Secret, and whether any authorizer allowed it. */
const deletes: { user: string; allowed: boolean }[] = [];
const SECRET_DELETES: Plugin = {
  name: 'SecretDeletesForTests',
  apply(host) {
    const isDelete = (a: { resource?: string; verb: string }) => a.resource === 'secrets' && a.verb === 'delete';
    host.hooks.authorize.tap({ name: 'SecretDeletesForTests', stage: -Infinity }, (a) => { if (isDelete(a)) deletes.push({ user: a.user.name, allowed: true }); return undefined; });
    host.hooks.authorize.tap({ name: 'SecretDeletesRefusedForTests', stage: Infinity }, (a) => { if (isDelete(a)) deletes.at(-1)!.allowed = false; return undefined; });
  },
};

describe('the token cleaner in plat controller-manager', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--controllers='], plugins: [SECRET_DELETES] });
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  const start = (controllers: string) => startControllerManager(['--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', '0',
    '--use-service-account-credentials', `--controllers=${controllers}`]);
  const exists = async (name: string) => (await plat.admin.get(`${secretsOf('plat-system')}/${name}`)).status === 200;
  const past = () => new Date(Date.now() - 60_000).toISOString();

  it('is off by default, as upstream\'s', async () => {
    assert.equal((await plat.admin.post(secretsOf('plat-system'), bootstrapToken('kept00', past()))).status, 201);
    const cm = await start('*');
    try {
      await until(async () => cm.logs.some((l) => l.includes('Warning: controller is disabled') && l.includes(`controller="${CLEANER}"`)), 'the cleaner told of as disabled');
      await until(async () => cm.logs.some((l) => l.includes('Starting controller') && l.includes('controller="serviceaccount-controller"')), 'the others started');
      assert.ok(!cm.logs.some((l) => l.includes('Starting controller') && l.includes(`controller="${CLEANER}"`)), cm.logs.join('\n'));
      assert.ok(await exists('bootstrap-token-kept00'));
    } finally {
      await cm.stop();
    }
  });

  it('runs with *,tokencleaner and deletes as its own service account', async () => {
    assert.equal((await plat.admin.post(secretsOf('plat-system'), bootstrapToken('gone00', past()))).status, 201);
    const cm = await start('*,tokencleaner');
    try {
      await until(async () => !(await exists('bootstrap-token-gone00')) && !(await exists('bootstrap-token-kept00')), 'the expired tokens deleted');
      assert.ok(cm.logs.some((l) => l.includes('Starting controller') && l.includes(`controller="${CLEANER}"`)), cm.logs.join('\n'));
      const byCleaner = deletes.filter((d) => d.user === 'system:serviceaccount:plat-system:token-cleaner');
      assert.ok(byCleaner.length >= 2 && byCleaner.every((d) => d.allowed), JSON.stringify(deletes));
    } finally {
      await cm.stop();
    }
  });
});
