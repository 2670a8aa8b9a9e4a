// authentication.x509.clientCAFile: the PEM bundle client certificates are verified against, read
// once at start-up. A file that cannot be read or holds no usable certificate stops the agent, as
// upstream's NewDynamicCAContentFromFile does (a silent empty bundle would turn every client
// certificate away, or worse, leave callers anonymous).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { osErrorText } from '../../core/go-os-error.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The kubelet's InitializeTLS wrapper (`unable to load client CA file %s: %v`), after the field's name. */
export function readClientCaFile(file: string): string {
  const fail = (why: string) => new Error(`authentication.x509.clientCAFile: unable to load client CA file ${file}: ${why}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw fail(osErrorText('open', file, e));
  }
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  // certutil.NewPool's wrapper around NewPoolFromBytes.
  if (blocks.length === 0) throw fail(`error creating pool from ${file}: data does not contain any valid RSA or ECDSA certificates`);
  blocks.forEach((b, i) => {
    try {
      new X509Certificate(b);
    } catch (e) {
      throw fail(`certificate ${i + 1}: ${(e as Error).message}`);
    }
  });
  return `${blocks.join('\n')}\n`;
}
