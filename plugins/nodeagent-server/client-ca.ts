// authentication.x509.clientCAFile: the PEM bundle client certificates are verified against. A file
// that cannot be read or holds no usable certificate at start-up stops the agent, as upstream's
// NewDynamicCAContentFromFile does (a silent empty bundle would turn every client certificate away,
// or worse, leave callers anonymous). While the agent runs the file is watched (upstream's
// "client-ca-bundle" content, run by BuildAuthn's runAuthenticatorCAReload): the authenticator
// verifies against its latest usable content; an unusable change is logged and the current kept.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseCaBundle } from '../../core/authn/x509/index.js';
import { osErrorText } from '../../core/go-os-error.js';
import type { Logger } from '../../core/log.js';
import { watchCaFile } from '../../core/tls/dynamic-content.js';
import type { WatchedFiles } from '../../core/tls/watched-files.js';

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

/** The file, read now as above, then watched once started; a change is taken when it parses as the authenticator parses it. */
export function watchClientCaFile(file: string, log: Logger): WatchedFiles<string> {
  return watchCaFile('client-ca-bundle', file, () => readClientCaFile(file), (bundle) => {
    const pem = bundle.toString('latin1');
    parseCaBundle(pem, '');
    return pem;
  }, log);
}
