// --feature-gates=StorageVersionHash=false: the legacy discovery documents' APIResources carry no
// storageVersionHash, as upstream's installer sets it only with the gate on (beta, on in 1.32).
// Aggregated discovery has no such field either way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startInProcess } from '../helpers/plat.js';

describe('feature gate StorageVersionHash', () => {
  const cases: Array<[string, string[], boolean]> = [
    ['on by default', [], true],
    ['set off', ['--feature-gates=StorageVersionHash=false'], false],
  ];
  for (const [what, args, hashed] of cases) {
    it(`${what}: stored resources ${hashed ? 'carry' : 'carry no'} storageVersionHash`, async () => {
      const plat = await startInProcess({ args });
      try {
        for (const path of ['/api/v1', '/apis/certificates.platform/v1']) {
          const r = await plat.admin.get(path);
          assert.equal(r.status, 200, r.text);
          const stored = r.json.resources.filter((x: { name: string }) => x.name === 'nodes' || x.name === 'certificatesigningrequests');
          assert.equal(stored.length, 1, path);
          assert.equal(typeof stored[0].storageVersionHash, hashed ? 'string' : 'undefined', `${path}: ${JSON.stringify(stored[0])}`);
          // Never on a subresource, gate or not.
          assert.ok(r.json.resources.filter((x: { name: string }) => x.name.includes('/')).every((x: object) => !('storageVersionHash' in x)));
        }
      } finally {
        await plat.stop();
      }
    });
  }
});
