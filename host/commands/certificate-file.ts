// DIR/<name>.crt, where `plat csr create --wait` and `plat csr wait --out-dir` put an issued
// certificate next to <name>.key. As the key, it never replaces what is there (a certificate in
// use, a link to one): it is looked for before anything is sent or waited for, and written only
// where nothing is. And it is written only when it is the key's: whoever may write a CSR's status
// may put any certificate there, and a pair that does not match is refused as the node agent's
// certificate manager refuses it (tls.X509KeyPair's words).
import { lstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { x509KeyPairProblem } from '../../core/crypto/x509-key-pair.js';
import { ERRNO_TEXT, osErrorText } from '../../core/go-os-error.js';
import { writeFileAtomic } from '../../core/pki/write-file-atomic.js';
import { CommandError } from './command-error.js';

export const certificateFileOf = (dir: string, name: string): string => path.join(dir, `${name}.crt`);
export const keyFileOf = (dir: string, name: string): string => path.join(dir, `${name}.key`);

/** Whether anything is at `file` (a symlink included, even a dangling one). */
export function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** `choices`: what the command lets its user choose instead (`--name or --out-dir`). */
export const existingCertificate = (file: string, choices = '--out-dir'): CommandError =>
  new CommandError(`${file} already exists; remove it or choose another ${choices} (an existing certificate is never replaced)`);

/** Refuses, before anything is sent or waited for, a certificate file that is already there. */
export function refuseExistingCertificate(file: string, choices?: string): void {
  if (exists(file)) throw existingCertificate(file, choices);
}

/**
 * Writes `cert` (PEM) to `file` when it is the certificate of `key` (none known: of whatever key),
 * and only where nothing is.
 */
export async function writeIssuedCertificate(file: string, cert: Uint8Array, key: { pem: string | Uint8Array; file: string } | undefined, choices?: string): Promise<void> {
  const problem = key ? x509KeyPairProblem(cert, key.pem) : undefined;
  if (problem) throw new CommandError(`the issued certificate and the private key in ${key!.file} are not a pair: ${problem.reason}; ${file} was not written`);
  try {
    await writeFileAtomic(file, cert, 0o644, { exclusive: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw existingCertificate(file, choices);
    throw new CommandError(`cannot write the certificate ${file}: ${ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message}`);
  }
}

/** <name>.key beside the certificate, when there is one: the key the certificate must be for. */
export async function keyBeside(keyFile: string): Promise<{ pem: Buffer; file: string } | undefined> {
  try {
    return { pem: await readFile(keyFile), file: keyFile };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CommandError(`cannot read the private key the certificate is for: ${osErrorText('open', keyFile, e)}`);
  }
}
