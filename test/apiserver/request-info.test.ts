// RequestInfo's name for lists and watches: a `metadata.name=` field selector pins it, as
// upstream's RequestInfoFactory does, so authorizers see which object a list or watch reads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestInfo } from '../../core/server/request-info.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const info = (path: string, query = '', method = 'GET') => requestInfo(method, path, new URLSearchParams(query));

describe('request info: names from field selectors', () => {
  it('a list or watch with metadata.name=<name> names the object', () => {
    assert.deepEqual([info('/api/v1/nodes', 'fieldSelector=metadata.name%3Dn1').verb, info('/api/v1/nodes', 'fieldSelector=metadata.name%3Dn1').name], ['list', 'n1']);
    const w = info('/api/v1/nodes', 'watch=true&fieldSelector=spec.unschedulable%3Dfalse,metadata.name%3D%3Dn1');
    assert.deepEqual([w.verb, w.name], ['watch', 'n1']);
  });
  it('anything else names nothing', () => {
    for (const q of ['fieldSelector=metadata.name!%3Dn1', 'fieldSelector=spec.unschedulable%3Dtrue', 'fieldSelector=metadata.name%3D', 'fieldSelector=metadata.name%3Da%2Fb',
      'fieldSelector=metadata.name%3D..', 'fieldSelector=metadata.name%3Da%25b', 'fieldSelector=a%3Db%3Dc', '']) {
      assert.equal(info('/api/v1/nodes', q).name, '', q);
    }
    // The watch path form (/watch/...) keeps its own meaning.
    assert.equal(info('/api/v1/watch/nodes', 'fieldSelector=metadata.name%3Dn1').name, '');
    // Only lists and watches read the selector.
    assert.equal(info('/api/v1/nodes', 'fieldSelector=metadata.name%3Dn1', 'DELETE').name, '');
  });
});

// The watch parameter is ParameterCodec's boolean (Convert_Slice_string_To_bool): false only for
// "0" and "false" in any case, so the Python client's `watch=True` watches.
describe('request info: the watch parameter', () => {
  const cases: Array<[string, string]> = [
    ['watch=true', 'watch'], ['watch=1', 'watch'], ['watch=True', 'watch'], ['watch=TRUE', 'watch'], ['watch=t', 'watch'],
    ['watch=yes', 'watch'], ['watch=', 'watch'], ['watch=True&watch=0', 'watch'],
    ['watch=false', 'list'], ['watch=False', 'list'], ['watch=0', 'list'], ['watch=0&watch=1', 'list'], ['', 'list'],
  ];
  for (const [query, verb] of cases) {
    it(`?${query}: ${verb}`, () => assert.equal(info('/apis/certificates.platform/v1/certificatesigningrequests', query).verb, verb));
  }
});

// requestinfo.go: selectors are authorization attributes of list, watch and deletecollection,
// but not of the deprecated verb-via-path /watch/ form.
describe('request info: selectors for authorization', () => {
  const cases: Array<[string, string, string, string]> = [
    ['GET', '/api/v1/nodes', 'list', 'a=b'],
    ['GET', '/api/v1/nodes?watch=true', 'watch', 'a=b'],
    ['DELETE', '/api/v1/namespaces/n/secrets', 'deletecollection', 'a=b'],
    ['GET', '/api/v1/watch/nodes', 'watch', ''],
    ['GET', '/api/v1/watch/namespaces/n/secrets', 'watch', ''],
    ['GET', '/api/v1/nodes/n1', 'get', ''],
  ];
  for (const [method, url, verb, selector] of cases) {
    it(`${method} ${url}: ${verb}, selectors ${selector ? 'kept' : 'left out'}`, () => {
      const [path, extra = ''] = url.split('?');
      const r = info(path!, `${extra}&fieldSelector=a%3Db&labelSelector=a%3Db`, method);
      assert.deepEqual([r.verb, r.fieldSelector, r.labelSelector], [verb, selector, selector]);
    });
  }
});

describe('a named list of a namespaced resource across namespaces', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });
  it('is a list (200), not a named path without a namespace (404)', async () => {
    const r = await plat.admin.get('/api/v1/secrets?fieldSelector=metadata.name%3Dnone');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.items, []);
    assert.equal((await plat.admin.get('/api/v1/secrets/none')).status, 404);
  });
});
