// `plat csr create`: generate a private key, build a PKCS#10 request with it (core/crypto), write
// <name>.key (0600) into --out-dir, never over an existing file, and only then submit the request
// as a CertificateSigningRequest for the named signer: whatever happens to the request, its key is
// not lost. The name is --name, or csr-xxxxx made here as the server makes a generateName (another
// on a clash), so that it is known before anything is sent. With --wait, wait for the outcome as a
// node agent does and write <name>.crt (certificate-file.ts: never over a file either, and only the
// key's certificate); a denial or failure ends the command with the condition's reason and message.
import { rm } from 'node:fs/promises';
import { CSR_RESOURCE, SIGNER_NODEAGENT_SERVING, type Csr } from '../../core/certificates/csr-object.js';
import { createCsr, generateKeyPair } from '../../core/crypto/index.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import { writeFileAtomic } from '../../core/pki/index.js';
import { ERRNO_TEXT } from '../../core/go-os-error.js';
import { CommandError } from './command-error.js';
import { parseSubcommand } from './subcommand-help.js';
import { checkNames, describeError, openClient } from './csr-connection.js';
import { generatedName } from '../../core/api/generate-name.js';
import { isApiError } from '../../core/client/rest-client.js';
import { tlsVerifyReason } from '../../core/client/tls-verify-error.js';
import { makeOutDir, OutDirError } from './out-dir.js';
import { CSR_DISPLAY, objectPrinter } from './csr-output.js';
import { createFlags, KEY_TYPES } from './csr-create-flags.js';
import { waitForIssued } from './csr-wait.js';
import { wireBytes } from '../../core/certificates/csr-object.js';
import { runInterruptible } from './interrupt.js';
import { certificateFileOf, existingCertificate, exists, keyFileOf, refuseExistingCertificate, writeIssuedCertificate } from './certificate-file.js';

/**
 * Failures that come before a byte of the request is written: no connection (refused, no route,
 * no such host) or a server certificate this client rejects, which it does before it sends
 * anything. A reset or a timeout may come after the request went out, so they are not here.
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
/** The calls those codes must come from: an unreachable host can also be reported on a read or write after the request went out. */
const NOT_SENT_SYSCALLS = new Set(['connect', 'getaddrinfo']);
const neverSent = (e: unknown): boolean => {
  const err = e as NodeJS.ErrnoException | undefined;
  if (isApiError(e) || !(err instanceof Error)) return false;
  return (NOT_SENT_CODES.has(err.code ?? '') && NOT_SENT_SYSCALLS.has(err.syscall ?? '')) || tlsVerifyReason(err) !== undefined;
};

/** The node agent's choice: key encipherment only for RSA keys; server auth for the serving signer. */
export function defaultUsages(signer: string, keyType: string): string[] {
  return ['digital signature', ...(keyType === 'rsa2048' ? ['key encipherment'] : []), signer === SIGNER_NODEAGENT_SERVING ? 'server auth' : 'client auth'];
}

function flagsOf(argv: readonly string[]): Flags {
  const f = createFlags();
  const { positional } = parseSubcommand('plat csr create', f, argv);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  if (!f.get<string>('signer')) throw new FlagError('--signer is required');
  // 0 is the default (the signer's lifetime), but not a lifetime to ask for.
  if (f.isSetOnCommandLine('duration') && f.get<number>('duration') === 0) throw new FlagError(`invalid argument "${f.commandLineText('duration')}" for "--duration" flag: must be at least 10m0s`);
  // The server refuses such a name too (its key function), but <name>.key is written here first:
  // --name a/b would put it in a subdirectory.
  if (f.get<string>('name')) checkNames([f.get<string>('name')]);
  return f;
}

const CHOICES = '--name or --out-dir';
const existingKey = (keyFile: string) => new CommandError(`${keyFile} already exists; remove it or choose another ${CHOICES} (an existing private key is never replaced)`);

/** Tries for a generated name that is taken (by a key file here, or a CSR on the server). */
const NAME_ATTEMPTS = 8;

export async function csrCreate(argv: readonly string[], stdout: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const f = flagsOf(argv);
  // With -o, stdout carries the object alone (for jq, or `-o name` in a script), as kubectl create -o.
  const format = f.get<string>('output');
  const out = format ? stderr : stdout;
  const signer = f.get<string>('signer');
  const keyType = f.get<string>('key-type');
  const usages = f.get<string[]>('usages').length ? f.get<string[]>('usages') : defaultUsages(signer, keyType);
  const key = generateKeyPair(KEY_TYPES[keyType]);
  const requestPem = createCsr({
    subject: { commonName: f.get<string>('cn'), organizations: f.get<string[]>('org') },
    dnsNames: f.get<string[]>('dns'), ipAddresses: f.get<string[]>('ip'), privateKey: key.keyObject,
  });
  const duration = f.get<number>('duration');
  const dir = f.get<string>('out-dir');
  const given = f.get<string>('name');
  const wait = f.get<boolean>('wait');
  // An existing key is never replaced (it may be the key of a certificate in use), nor with --wait
  // a certificate: with --name the request is then not even sent.
  if (given && exists(keyFileOf(dir, given))) throw existingKey(keyFileOf(dir, given));
  if (given && wait) refuseExistingCertificate(certificateFileOf(dir, given), CHOICES);
  const client = openClient(f);
  try {
    let created: Csr | undefined;
    let name = '';
    let keyFile = '';
    for (let attempt = 1; !created; attempt++) {
      name = given || generatedName('csr-');
      keyFile = keyFileOf(dir, name);
      if (!given && wait && exists(certificateFileOf(dir, name))) {
        if (attempt >= NAME_ATTEMPTS) throw existingCertificate(certificateFileOf(dir, name), CHOICES);
        continue;
      }
      try {
        await makeOutDir(dir);
        await writeFileAtomic(keyFile, key.privateKeyPem, 0o600, { exclusive: true });
      } catch (e) {
        if (!(e instanceof OutDirError) && (e as NodeJS.ErrnoException).code === 'EEXIST') {
          if (given || attempt >= NAME_ATTEMPTS) throw existingKey(keyFile);
          continue;
        }
        // The errno's words, not Node's message, which names the temporary file the key was staged in.
        const reason = e instanceof OutDirError ? e.message : ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message;
        throw new CommandError(`cannot write the private key ${keyFile} (nothing was sent): ${reason}`);
      }
      try {
        created = await client.create<Csr>(CSR_RESOURCE, {
          apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
          spec: {
            request: Buffer.from(requestPem).toString('base64'), signerName: signer, usages,
            ...(duration ? { expirationSeconds: Math.floor(duration / 1000) } : {}),
          },
        });
      } catch (e) {
        // Refused, or never sent (the CSR does not exist): its key is of no use. A generated name
        // someone else has: another. No answer, or a server error such as a timeout: the request
        // may have been stored, so its key stays.
        if (neverSent(e)) {
          await rm(keyFile, { force: true });
          throw e;
        }
        if (isApiError(e) && e.code >= 400 && e.code < 500) {
          await rm(keyFile, { force: true });
          if (!given && isApiError(e, 'AlreadyExists') && attempt < NAME_ATTEMPTS) continue;
          throw e;
        }
        throw new CommandError(`${describeError(e)}; the request may have reached the server (\`plat csr get ${name}\` tells): its private key is kept in ${keyFile}`);
      }
    }
    out(`${CSR_DISPLAY}/${name} created\n`);
    out(`private key written to ${keyFile}\n`);
    if (!wait) {
      if (format) objectPrinter(format, stdout, f.get<boolean>('show-managed-fields'))(created);
      return 0;
    }
    const done = await runInterruptible((signal) => waitForIssued(client, name, {
      uid: created.metadata.uid, timeoutMs: f.get<number>('timeout'), signal,
      onApproved: () => out(`certificate signing request ${name} is approved, waiting to be issued\n`),
      timeoutHint: `the request stays: \`plat csr wait ${name} --out-dir ${dir}\` writes its certificate next to the key once it is issued`,
    }));
    const certFile = certificateFileOf(dir, name);
    await writeIssuedCertificate(certFile, wireBytes(done.status?.certificate), { pem: key.privateKeyPem, file: keyFile }, CHOICES);
    out(`certificate written to ${certFile}\n`);
    if (format) objectPrinter(format, stdout, f.get<boolean>('show-managed-fields'))(done);
    return 0;
  } finally {
    client.close();
  }
}
