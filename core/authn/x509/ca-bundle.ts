// Reading --client-ca-file. Like client-go's cert.ParseCertsPEM: only CERTIFICATE blocks without
// headers count, other blocks (keys, CRLs) are skipped, a CERTIFICATE block that does not parse is
// an error, and a file without any certificate is an error. Base64 is checked strictly because
// Buffer.from(..., 'base64') silently drops characters it does not understand.
import { readFileSync } from 'node:fs';
import type { X509Certificate } from 'node:crypto';
import { osErrorText } from '../../go-os-error.js';
import { StartupError } from '../../plugin.js';
import { parseCertificate } from './certificate.js';
import type { Certificate } from './certificate.js';

const PEM_BLOCK = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** Parses every CERTIFICATE block of a PEM text; `source` names the input in error messages (blank: not named). */
export function parseCaBundle(pem: string, source: string): Certificate[] {
  const at = source ? `${source}: ` : '';
  const certs: Certificate[] = [];
  let index = 0;
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const [, type, body = ''] = m;
    // PEM headers ("Proc-Type: ...") mark encrypted or legacy blocks, which are not CA certificates.
    if (type !== 'CERTIFICATE' || body.includes(':')) continue;
    index++;
    const b64 = body.replace(/[\r\n\t ]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) {
      throw new StartupError(`${at}certificate ${index}: invalid base64 in PEM block`);
    }
    try {
      certs.push(parseCertificate(Buffer.from(b64, 'base64')));
    } catch (err) {
      throw new StartupError(`${at}certificate ${index}: ${(err as Error).message}`);
    }
  }
  if (certs.length === 0) throw new StartupError(`${at}data does not contain any valid RSA or ECDSA certificates`);
  return certs;
}

/**
 * Reads and parses a CA bundle file, with StartupErrors that name the file (`what`: which bundle it
 * is). A file that cannot be read is said as upstream's NewDynamicCAContentFromFile returns it, Go's
 * os error after the caller's `readWrapper` (kube-apiserver has none).
 */
export function readCaBundle(path: string, what = 'client CA file', readWrapper = ''): Certificate[] {
  const source = `unable to load ${what} "${path}"`;
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    throw new StartupError(readWrapper + osErrorText('open', path, err));
  }
  return parseCaBundle(text, source);
}

/** The CA certificates of a bundle file, for the TLS server's `ca` option. */
export function loadCaBundle(path: string): X509Certificate[] {
  return readCaBundle(path).map((c) => c.x509);
}
