// A service account `robot` in `default` and a token of it from the TokenRequest API.
import assert from 'node:assert/strict';
import type { Client } from '../helpers/plat.js';

const SAS = '/api/v1/namespaces/default/serviceaccounts';

export async function robotToken(admin: Client): Promise<string> {
  const r = await admin.post(SAS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
  assert.equal(r.status, 201, r.text);
  const t = await admin.post(`${SAS}/robot/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
  assert.equal(t.status, 201, t.text);
  return t.json.status.token;
}
