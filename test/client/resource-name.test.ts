// The REST client refuses, unsent, a name that is no path segment (client-go's Request.Name):
// a request that would otherwise go to another URL than the caller meant.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidResourceNameError, RestClient } from '../../core/client/rest-client.js';
import { pathSegmentNameErrors, resourceNameError } from '../../core/client/resource-name.js';
import { CSR_RESOURCE } from '../../core/certificates/csr-object.js';

describe('resource names in request paths', () => {
  it('path.IsValidPathSegmentName and client-go\'s messages', () => {
    assert.deepEqual(pathSegmentNameErrors('.'), ["may not be '.'"]);
    assert.deepEqual(pathSegmentNameErrors('..'), ["may not be '..'"]);
    assert.deepEqual(pathSegmentNameErrors('a/%'), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(pathSegmentNameErrors('...'), []);
    assert.equal(resourceNameError(''), 'resource name may not be empty');
    assert.equal(resourceNameError('x\ty/'), 'invalid resource name "x\\ty/": [may not contain \'/\']');
    assert.equal(resourceNameError('csr-1'), undefined);
  });

  it('get, update, patch and delete with such a name throw before any connection is made', async () => {
    let dialled = 0;
    const client = new RestClient({ server: new URL('https://127.0.0.1:1'), dial: () => { dialled++; throw new Error('dialled'); } });
    try {
      for (const call of [
        () => client.get(CSR_RESOURCE, ''),
        () => client.get(CSR_RESOURCE, '..'),
        () => client.update(CSR_RESOURCE, { metadata: {} }, 'approval'),
        () => client.patch(CSR_RESOURCE, 'a/b', {}),
        () => client.delete(CSR_RESOURCE, '.'),
      ]) await assert.rejects(call, InvalidResourceNameError);
      assert.equal(dialled, 0);
    } finally {
      client.close();
    }
  });
});
