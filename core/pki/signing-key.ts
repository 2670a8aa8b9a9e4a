// A lone signing key pair on disk (the service-account token key of `plat all`): made once,
// private half 0600, reused on every start so issued tokens stay valid across restarts.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { KEY_MODE, PkiError } from './pair.js';
import { writeFileAtomic, writeFileIfChanged } from './write-file-atomic.js';
import { makeDir } from '../make-dir.js';

export interface SigningKeyFiles { keyFile: string; publicKeyFile: string }

export function signingKeyFiles(dir: string, baseName: string): SigningKeyFiles {
  return { keyFile: path.join(dir, `${baseName}.key`), publicKeyFile: path.join(dir, `${baseName}.pub`) };
}

/** `<dir>/<baseName>.key` (ECDSA P-256, PKCS#8) and `<dir>/<baseName>.pub` (SPKI), made if missing. */
export async function ensureSigningKey(dir: string, baseName: string): Promise<SigningKeyFiles> {
  const { keyFile, publicKeyFile } = signingKeyFiles(dir, baseName);
  await makeDir(dir, 0o700);
  let pem: string | undefined;
  try {
    pem = await readFile(keyFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new PkiError(`cannot read ${keyFile}: ${(e as Error).message}`);
  }
  if (pem === undefined) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await writeFileAtomic(keyFile, pem, KEY_MODE);
  }
  let pub: string;
  try {
    pub = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'pem' }) as string;
  } catch (e) {
    throw new PkiError(`${keyFile} does not hold a usable private key: ${(e as Error).message}`);
  }
  await writeFileIfChanged(publicKeyFile, pub, 0o644);
  return { keyFile, publicKeyFile };
}
