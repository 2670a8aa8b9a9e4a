// keyutil.LoadOrGenerateKeyFile (k8s-behaviour §5.1): the key in the file when it reads as one,
// else a new ECDSA P-256 key written there (SEC1 `EC PRIVATE KEY`, 0600), so that a client killed
// before its request succeeded asks again with the same key. A file that is there but holds no key
// is an error, in upstream's words (Go prints the nil error it has then as `<nil>`). The file is
// written as plat writes keys everywhere (a fresh 0600 file renamed into place), and its directory
// private, as the certificate store makes it.
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { generateKeyPair, toPrivateKey } from '../../crypto/index.js';
import { makeDirSync } from '../../make-dir.js';
import { osErrorText } from '../../go-os-error.js';
import { writeFileAtomicSync } from '../../pki/write-file-atomic.js';
import { keyToPem } from './store.js';

export interface LoadedKey { readonly keyPem: string; readonly key: KeyObject; readonly generated: boolean }

/** keyutil.ParsePrivateKeyPEM's acceptance: the key, or undefined when the text holds none. */
export function parsePrivateKeyPem(pem: string): KeyObject | undefined {
  try { return toPrivateKey(pem); } catch { return undefined; }
}

export function loadOrGenerateKeyFile(file: string): LoadedKey {
  let data: string | undefined;
  try { data = readFileSync(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`error loading key from ${file}: ${osErrorText('open', file, e)}`);
  }
  if (data !== undefined) {
    const key = parsePrivateKeyPem(data);
    if (key) return { keyPem: data, key, generated: false };
    throw new Error(`error loading key from ${file}: <nil>`);
  }
  const key = generateKeyPair('ecdsa-p256').keyObject;
  const keyPem = keyToPem(key);
  try {
    makeDirSync(path.dirname(path.resolve(file)), 0o700);
    writeFileAtomicSync(file, keyPem, 0o600);
  } catch (e) {
    throw new Error(`error writing key to ${file}: ${(e as Error).message}`);
  }
  return { keyPem, key, generated: true };
}
