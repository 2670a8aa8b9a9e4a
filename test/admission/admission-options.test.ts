// AdmissionRequest.options as Go encodes the options struct: its field order, empty fields omitted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionOptions, writeOptionsOf } from '../../core/admission/options.js';

const json = (v: unknown) => JSON.stringify(v);

describe('admission options', () => {
  it('leaves out what is empty and keeps the struct order, whatever order the query had', () => {
    const q = new URLSearchParams('fieldValidation=Strict&dryRun=All&fieldManager=kubectl');
    assert.equal(json(admissionOptions('UPDATE', writeOptionsOf(q), true)),
      '{"kind":"UpdateOptions","apiVersion":"meta.k8s.io/v1","dryRun":["All"],"fieldManager":"kubectl","fieldValidation":"Strict"}');
    assert.equal(json(admissionOptions('CREATE', writeOptionsOf(new URLSearchParams('')), false)), '{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1"}');
    assert.equal(json(admissionOptions('CREATE', writeOptionsOf(new URLSearchParams('fieldManager=&fieldValidation=Warn')), false)),
      '{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldValidation":"Warn"}');
  });

  it('knows only dryRun for a write plat makes itself, and has none for CONNECT', () => {
    assert.equal(json(admissionOptions('UPDATE', undefined, true)), '{"kind":"UpdateOptions","apiVersion":"meta.k8s.io/v1","dryRun":["All"]}');
    assert.equal(json(admissionOptions('UPDATE', undefined, false)), '{"kind":"UpdateOptions","apiVersion":"meta.k8s.io/v1"}');
    assert.equal(admissionOptions('CONNECT', undefined, false), null);
  });

  it('encodes DeleteOptions with its pointers: an empty precondition string is still sent', () => {
    assert.equal(json(admissionOptions('DELETE', { delete: { gracePeriodSeconds: 0, preconditions: { uid: '' }, propagationPolicy: '', dryRun: [] } }, false)),
      '{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","gracePeriodSeconds":0,"preconditions":{"uid":""}}');
  });
});
