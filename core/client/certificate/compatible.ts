// client-go csr's ensureCompatible: a CSR found under the name a client meant to create is reused
// only if it is the request this client would have sent (same subject, same signer, signed by the
// local key) and its certificate, if any, has not expired; otherwise the error says why, in
// upstream's words. It guards the deterministic name of the node agent's legacy bootstrap.
import { X509Certificate, type KeyObject } from 'node:crypto';
import { decodePemBlocks, parseCsr, spkiOf, verifyCsrWithKey, type ParsedCsr } from '../../crypto/index.js';
import { hasCertificate, wireBytes, type Csr } from '../../certificates/csr-object.js';
import { goQuote } from '../../go-quote.js';
import { goTime } from '../../go-time-text.js';
import { flatSubject, goPkixName } from './go-pkix-name.js';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function parse(what: string, pem: Uint8Array | string): ParsedCsr {
  try { return parseCsr(pem); } catch (e) { throw new Error(`unable to parse ${what} csr: ${message(e)}`); }
}

/** reflect.DeepEqual of the two pkix.Names: their attributes, in order. */
function sameSubject(a: ParsedCsr, b: ParsedCsr): boolean {
  const x = flatSubject(a.subject);
  const y = flatSubject(b.subject);
  return x.length === y.length && x.every((v, i) => v.type === y[i]!.type && v.value === y[i]!.value);
}

/** Throws when `found` (the server's CSR) is not the one `request` (PEM, with `signerName`) and `key` make. */
export function ensureCompatible(found: Csr, request: { pem: string; signerName: string }, key: KeyObject, now: Date): void {
  const newCsr = parse('new', wireBytes(found.spec.request));
  const origCsr = parse('original', request.pem);
  if (!sameSubject(newCsr, origCsr)) throw new Error(`csr subjects differ: new: ${goPkixName(newCsr.subject)}, orig: ${goPkixName(origCsr.subject)}`);
  const signer = found.spec.signerName ?? '';
  if (signer && request.signerName && signer !== request.signerName) {
    throw new Error(`csr signerNames differ: new ${goQuote(signer)}, orig: ${goQuote(request.signerName)}`);
  }
  try { verifyCsrWithKey(newCsr, spkiOf(key)); } catch (e) {
    throw new Error(`error validating signature new CSR against old key: ${message(e)}`);
  }
  if (!hasCertificate(found)) return;
  let certs: X509Certificate[];
  try {
    certs = decodePemBlocks(wireBytes(found.status?.certificate)).filter((b) => b.label === 'CERTIFICATE').map((b) => new X509Certificate(Buffer.from(b.der)));
  } catch (e) {
    throw new Error(`error parsing signed certificate for CSR: ${message(e)}`);
  }
  if (certs.length === 0) throw new Error('error parsing signed certificate for CSR: data does not contain any valid RSA or ECDSA certificates');
  for (const cert of certs) {
    const notAfter = new Date(cert.validTo);
    if (now > notAfter) throw new Error(`one of the certificates for the CSR has expired: ${goTime(notAfter)}`);
  }
}
