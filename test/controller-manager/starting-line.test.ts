// kube-controller-manager's Run begins with `"Starting" version=<GitVersion>` (version.Info prints
// its GitVersion), once the configuration is complete and before leader election: an operator
// reads which build runs from the first line of its log. plat says it with its own GitVersion, the
// one --version=vX.Y.Z... sets too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startControllerManager, until } from './support.js';

describe('plat controller-manager\'s version line', () => {
  for (const c of [
    { name: 'the default GitVersion', args: [], version: 'v1.32.0+plat.0.0.0-test' },
    { name: 'the one --version sets', args: ['--version=v1.32.0-rc.1'], version: 'v1.32.0-rc.1' },
  ]) {
    it(`says ${c.name} before the election starts`, async () => {
      const cm = await startControllerManager(['--master=https://127.0.0.1:1', '--secure-port=0', ...c.args]);
      try {
        await until(async () => cm.logs.some((l) => l.includes('attempting to acquire leader lease')), 'the election started');
        const starting = cm.logs.filter((l) => / plat\/controller-manager\] Starting /.test(l));
        assert.equal(starting.length, 1, cm.logs.join('\n'));
        assert.match(starting[0]!, new RegExp(`^I.* plat/controller-manager\\] Starting version="${c.version.replace(/[.+]/g, '\\$&')}"$`));
        assert.ok(cm.logs.indexOf(starting[0]!) < cm.logs.findIndex((l) => l.includes('attempting to acquire leader lease')), cm.logs.join('\n'));
      } finally {
        await cm.stop();
      }
    });
  }
});
