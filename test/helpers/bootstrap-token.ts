// A bootstrap token made through the API, as `plat token create` makes one: a Secret
// bootstrap-token-<id> in plat-system; returns `<id>.<secret>`.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Client } from './plat.js';

export async function createBootstrapToken(admin: Client): Promise<string> {
  const id = randomBytes(3).toString('hex');
  const secret = randomBytes(8).toString('hex');
  const r = await admin.post('/api/v1/namespaces/plat-system/secrets', {
    apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.platform/token', metadata: { name: `bootstrap-token-${id}` },
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true' },
  });
  assert.equal(r.status, 201, r.text);
  return `${id}.${secret}`;
}
