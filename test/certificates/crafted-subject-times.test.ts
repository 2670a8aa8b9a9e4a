// Black box: a CSR whose subject holds a UTCTime or GeneralizedTime value, against a real `plat all`.
// Go's ParseCertificateRequest (the CSR validation) decodes such values with encoding/asn1's
// parseUTCTime / parseGeneralizedTime and refuses the request with time.Parse's or the round-trip's
// text; a canonical value is taken. (Every verdict: test/crypto/csr-subject-time-parity.test.ts.)
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { oid, printableString, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { OIDS, craftCsr } from '../crypto/csr-craft.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const withTime = (tag: number, value: string): string =>
  craftCsr({ key: privateKey, subject: seq(setOf(seq(oid('2.5.4.45'), tlv(tag, Buffer.from(value, 'latin1')))), setOf(seq(oid(OIDS.cn), printableString('x')))) });

describe('CSR subjects with time values against plat all', () => {
  let plat: RunningPlat;
  let n = 0;
  before(async () => { plat = await startInProcess({}); });
  after(async () => { await plat?.stop(); });

  const create = (pem: string) => plat.admin.post(CSRS, {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: `time-${++n}` },
    spec: { request: Buffer.from(pem).toString('base64'), signerName: 'platform/apiserver-client', usages: ['digital signature', 'client auth'] },
  });

  const refusals: { id: string; tag: number; value: string; message: string }[] = [
    { id: 'UTCTime month 13', tag: 0x17, value: '991301000000Z', message: 'parsing time "991301000000Z": month out of range' },
    { id: 'UTCTime without a zone', tag: 0x17, value: '991231235959', message: 'parsing time "991231235959" as "060102150405Z0700": cannot parse "" as "Z0700"' },
    { id: 'GeneralizedTime with +0000', tag: 0x18, value: '20991231235959+0000',
      message: 'asn1: time did not serialize back to the original value and may be invalid: given "20991231235959+0000", but serialized as "20991231235959Z"' },
  ];
  for (const c of refusals) {
    it(`refuses a subject ${c.id} at create: spec.request Invalid, Go's text`, async () => {
      const res = await create(withTime(c.tag, c.value));
      assert.equal(res.status, 422, res.text);
      const causes = res.json.details.causes as { field: string; message: string }[];
      assert.equal(causes.length, 1, res.text);
      assert.equal(causes[0]!.field, 'spec.request');
      assert.ok(causes[0]!.message.endsWith(`: ${c.message}`), causes[0]!.message);
    });
  }

  it('creates a CSR whose subject holds canonical UTCTime and GeneralizedTime values', async () => {
    for (const [tag, value] of [[0x17, '991231235959Z'], [0x18, '20991231235959-0130']] as const) {
      const res = await create(withTime(tag, value));
      assert.equal(res.status, 201, res.text);
    }
  });
});
