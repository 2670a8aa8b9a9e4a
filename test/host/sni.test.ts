// --tls-sni-cert-key's parsing and name table (upstream's NamedCertKey and BuildNamedCertificates):
// the value syntax with upstream's errors, the names a certificate answers for by itself, and the
// precedence rules — earlier values over later ones, explicit names over extracted ones, exact
// names over wildcards — as a table.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { certificateNames, parseNamedCertKey, SniCertificates } from '../../core/server/sni.js';
import { makeCa, makeCert, makeServingCert, writeCertKeyFiles, type TestCredential } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';

describe('--tls-sni-cert-key', () => {
  it('parses values as cliflag.NamedCertKey does', () => {
    const ok: [string, ReturnType<typeof parseNamedCertKey>][] = [
      ['a.crt,a.key', { certFile: 'a.crt', keyFile: 'a.key', names: [] }],
      [' a.crt , a.key ', { certFile: 'a.crt', keyFile: 'a.key', names: [] }],
      ['a.crt,a.key:*.foo.com,foo.com', { certFile: 'a.crt', keyFile: 'a.key', names: ['*.foo.com', 'foo.com'] }],
      ['a.crt,a.key: 10.0.0.1 , bar.com', { certFile: 'a.crt', keyFile: 'a.key', names: ['10.0.0.1', 'bar.com'] }],
    ];
    for (const [value, want] of ok) assert.deepEqual(parseNamedCertKey(value), want, value);
    const bad: [string, RegExp][] = [
      ['a.crt', /expected comma separated certificate and key file paths/],
      ['a.crt,a.key,b', /expected comma separated certificate and key file paths/],
      ['a.crt,a.key:', /empty names list is not allowed/],
      ['a.crt,a.key:  ', /empty names list is not allowed/],
    ];
    for (const [value, message] of bad) assert.throws(() => parseNamedCertKey(value), message, value);
  });

  it("takes a certificate's CN (unless an IP or no DNS name) and DNS SANs, never its IP SANs", () => {
    const ca = makeCa();
    const names = (c: TestCredential) => certificateNames(c.certificatePem);
    assert.deepEqual(names(makeServingCert(ca, ['a.example.com', 'b.example.com'], ['10.0.0.1'])), ['a.example.com', 'a.example.com', 'b.example.com']);
    assert.deepEqual(names(makeCert(ca, { commonName: '10.0.0.2', ipAddresses: ['10.0.0.2'] })), []);
    assert.deepEqual(names(makeCert(ca, { commonName: '*.wild.example.com' })), ['*.wild.example.com']);
    assert.deepEqual(names(makeCert(ca, { commonName: 'Not A Name' })), []);
  });

  it('reads the CN out of a multi-valued RDN as Go does (openssl -multivalue-rdn)', () => {
    const dir = tempDir();
    const key = path.join(dir, 'k.pem');
    const crt = path.join(dir, 'c.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', crt,
      '-days', '1', '-multivalue-rdn', '-subj', '/CN=multi.example.com+O=acme', '-addext', 'subjectAltName=DNS:san.example.com'], { stdio: 'ignore' });
    const pem = readFileSync(crt, 'utf8');
    assert.match(new X509Certificate(pem).subject, /\+/, 'node:crypto joins the RDN in its text');
    assert.deepEqual(certificateNames(pem), ['multi.example.com', 'san.example.com']);
    assert.equal(SniCertificates.load([`${crt},${key}`]).pairFor('multi.example.com')?.cert, pem);
  });

  it('chooses by name with upstream precedence', () => {
    const dir = tempDir();
    const ca = makeCa();
    const files = (name: string, cred: TestCredential) => writeCertKeyFiles(dir, name, cred);
    const first = files('first', makeServingCert(ca, ['shared.example.com', 'first.example.com']));
    const second = files('second', makeServingCert(ca, ['shared.example.com', 'second.example.com', 'explicit.example.com']));
    const wild = files('wild', makeServingCert(ca, ['*.example.com']));
    const explicit = files('explicit', makeServingCert(ca, ['whatever.test']));
    const sni = SniCertificates.load([first, second, wild, `${explicit}:explicit.example.com,10.1.2.3`]);
    const subject = (name: string) => {
      const pair = sni.pairFor(name);
      return pair ? new X509Certificate(pair.cert).subjectAltName : undefined;
    };
    const cases: [string, string | undefined, string][] = [
      ['shared.example.com', 'DNS:shared.example.com, DNS:first.example.com', 'an earlier value wins a name both extract'],
      ['SECOND.example.com', 'DNS:shared.example.com, DNS:second.example.com, DNS:explicit.example.com', 'names are compared lowercased'],
      ['explicit.example.com', 'DNS:whatever.test', 'an explicit name beats an extracted one, even from an earlier value'],
      ['other.example.com', 'DNS:*.example.com', 'the wildcard when no exact name matches'],
      ['first.example.com', 'DNS:shared.example.com, DNS:first.example.com', 'an exact name beats the wildcard'],
      ['deep.other.example.com', undefined, 'a wildcard covers one label only'],
      ['whatever.test', undefined, 'explicit names replace the certificate\'s own'],
      ['', undefined, 'no name'],
    ];
    for (const [name, want, why] of cases) assert.equal(subject(name), want, why);
    assert.equal(new X509Certificate(sni.pairForLocalAddress('::ffff:10.1.2.3')!.cert).subjectAltName, 'DNS:whatever.test', 'an explicit IP maps the local address');
    assert.equal(sni.pairForLocalAddress('127.0.0.1'), undefined);
  });

  it('refuses a pair that cannot serve in SecureServingOptions.ApplyTo\'s words', () => {
    const dir = tempDir();
    const ca = makeCa();
    const a = makeServingCert(ca, ['a.example.com']);
    const b = makeServingCert(ca, ['b.example.com']);
    writeFileSync(path.join(dir, 'a.crt'), a.certificatePem);
    writeFileSync(path.join(dir, 'b.key'), b.privateKeyPem);
    assert.throws(() => SniCertificates.load([`${dir}/a.crt,${dir}/b.key`]), /failed to load SNI cert and key: tls: private key does not match public key$/);
    assert.throws(() => SniCertificates.load([`${dir}/a.crt,${dir}/b.key:x`, `${dir}/missing.crt,${dir}/b.key`]), /failed to load SNI cert and key: tls: private key does not match public key$/, 'the first value fails first');
    assert.throws(() => SniCertificates.load([`${dir}/missing.crt,${dir}/b.key`]), { message: `failed to load SNI cert and key: open ${dir}/missing.crt: no such file or directory` });
  });
});
