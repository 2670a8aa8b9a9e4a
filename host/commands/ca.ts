// `plat ca init` and `plat ca sign`: an offline CA on top of the crypto core, so users (and tests)
// can issue certificates from CSRs without a server, through the same issuing pipeline the signing
// controller uses.
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CryptoError, createCertificate, encodePem, generateKeyPair, issueCertificate, keyUsagesFromStrings, parseCertificateDer, type IssuingCa, type KeyType, type ParsedCertificate } from '../../core/crypto/index.js';
import { X509KeyPairError, x509KeyPair } from '../../core/crypto/x509-key-pair.js';
import { BACKDATE_MS, validityWindow } from '../../core/certificates/validity-window.js';
import { formatDuration } from '../../core/flags/duration.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { writeFileAtomic, writePair } from '../../core/pki/index.js';
import { makeDir } from '../../core/make-dir.js';
import { ERRNO_TEXT, isNotExist, osErrorText, syscallErrorText } from '../../core/go-os-error.js';
import { parseSubcommand, type SubcommandHelp } from './subcommand-help.js';
import { CommandError } from './command-error.js';

const KEY_TYPES: Record<string, KeyType> = { p256: 'ecdsa-p256', p384: 'ecdsa-p384', ed25519: 'ed25519', rsa2048: 'rsa-2048' };

function parse(path: string, argv: readonly string[], define: (f: Flags) => void): Flags {
  const flags = new Flags();
  define(flags);
  const { positional } = parseSubcommand(path, flags, argv);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  return flags;
}

export const CA_USAGE = `Usage:
  plat ca init --dir DIR [--key-type p256|p384|ed25519|rsa2048] [--cn NAME] [--days N] [--force]
  plat ca sign --ca-dir DIR --csr FILE [--usages "digital signature,key encipherment,client auth"] [--duration 8760h] [--out FILE [--force]]
`;

// X.509 times end with year 9999 (GeneralizedTime's four digits).
const LAST_VALID_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** Checked with the flag, so that no directory is made for a CA that cannot be issued. */
function daysProblem(days: number, now: Date): string | undefined {
  if (days < 1) return 'must be at least 1';
  const most = Math.floor((LAST_VALID_MS - now.getTime()) / 86_400_000);
  return days > most ? `must be at most ${most} (a certificate cannot be valid past 9999-12-31)` : undefined;
}

const initFlags = (now: Date) => (f: Flags): void => {
  const S = 'plat ca init';
  f.define({ name: 'dir', type: 'string', default: '', section: S, help: 'Directory for ca.crt and ca.key (created 0700).' });
  f.define({ name: 'key-type', type: 'string', default: 'p256', enum: Object.keys(KEY_TYPES), section: S, help: 'Key type of the CA.' });
  f.define({ name: 'cn', type: 'string', default: 'plat-ca', section: S, help: 'Common name of the CA.' });
  f.define({ name: 'days', type: 'int', default: 3650, section: S, help: 'Validity in days.',
    validate: (v) => daysProblem(v as number, now) });
  f.define({ name: 'force', type: 'bool', default: false, section: S, help: 'Replace an existing CA in --dir.' });
};

function usagesProblem(usages: readonly string[]): string | undefined {
  try {
    keyUsagesFromStrings(usages);
    return undefined;
  } catch (e) {
    if (e instanceof CryptoError) return e.message;
    throw e;
  }
}

function signFlags(f: Flags): void {
  const S = 'plat ca sign';
  f.define({ name: 'ca-dir', type: 'string', default: '', section: S, help: 'Directory holding ca.crt and ca.key.' });
  f.define({ name: 'csr', type: 'string', default: '', section: S, help: 'PEM CERTIFICATE REQUEST file.' });
  f.define({ name: 'usages', type: 'strings', default: ['digital signature', 'key encipherment', 'client auth'], section: S, help: 'Key usages of the certificate (spec.usages names).',
    validate: (v) => usagesProblem(v as string[]) });
  f.define({ name: 'duration', type: 'duration', default: 8760 * 3600_000, section: S, help: 'Requested lifetime; capped by the CA\'s own validity.',
    validate: (v) => ((v as number) < 600_000 ? 'must be at least 10m0s' : undefined) });
  f.define({ name: 'out', type: 'string', default: '', section: S, help: 'Write the certificate here (default: standard output).' });
  f.define({ name: 'force', type: 'bool', default: false, section: S, help: 'Replace an existing --out file (never the CA\'s own).' });
}

/**
 * keyutil.MarshalPrivateKeyToPEM's forms: SEC1 `EC PRIVATE KEY` for ECDSA, PKCS#1 `RSA PRIVATE KEY`
 * for RSA; Ed25519, which it cannot write, stays PKCS#8 `PRIVATE KEY`.
 */
function keyPem(key: KeyObject): string {
  const type = key.asymmetricKeyType === 'ec' ? 'sec1' : key.asymmetricKeyType === 'rsa' ? 'pkcs1' : 'pkcs8';
  return key.export({ type, format: 'pem' }).toString();
}

/** The flags of `plat ca init` and `plat ca sign`, not yet parsed. */
export function caInitFlags(now = new Date()): Flags {
  const f = new Flags();
  initFlags(now)(f);
  return f;
}

export function caSignFlags(): Flags {
  const f = new Flags();
  signFlags(f);
  return f;
}

export const CA_HELP: Readonly<Record<string, SubcommandHelp>> = {
  init: {
    use: 'plat ca init --dir DIR [options]',
    long: `Make an offline CA: a new key and a self-signed CA certificate, written to DIR/ca.key and DIR/ca.crt.

An existing CA in DIR is never replaced without --force.`,
    examples: `  # Make a CA named my-ca in ./ca, valid for a year
  plat ca init --dir ca --cn my-ca --days 365`,
    flags: () => caInitFlags(),
  },
  sign: {
    use: 'plat ca sign --ca-dir DIR --csr FILE [options]',
    long: `Issue a certificate from a PEM certificate request with an offline CA (plat ca init's), through the
pipeline the signing controller issues with; its lifetime is capped by the CA's own.`,
    examples: `  # Issue a client certificate for alice.csr, valid for a day, to alice.crt
  plat ca sign --ca-dir ca --csr alice.csr --usages "digital signature,client auth" --duration 24h --out alice.crt`,
    flags: caSignFlags,
  },
};

export async function caInit(argv: readonly string[], now = new Date()): Promise<string> {
  const f = parse('plat ca init', argv, initFlags(now));
  const dir = f.get<string>('dir');
  if (!dir) throw new CommandError('--dir is required', 2);
  const certFile = path.join(dir, 'ca.crt');
  const keyFile = path.join(dir, 'ca.key');
  if (!f.get<boolean>('force')) {
    const [cert, key] = [existsSync(certFile), existsSync(keyFile)];
    if (cert && key) throw new CommandError(`${dir} already holds a CA (ca.crt and ca.key); use --force to replace it`);
    // One without the other is not a CA anyone can use, but a key may still be the only copy.
    const [present, absent] = cert ? [certFile, keyFile] : [keyFile, certFile];
    if (cert || key) throw new CommandError(`${present} exists without ${absent}; restore ${absent}, or use --force (or remove ${present}) to make a new CA`);
  }
  try {
    await makeDir(dir, 0o700);
  } catch (e) {
    throw new CommandError(`--dir ${dir}: ${syscallErrorText(e)}`);
  }
  const key = generateKeyPair(KEY_TYPES[f.get<string>('key-type')]);
  const { certificatePem } = createCertificate({
    template: {
      subject: { commonName: f.get<string>('cn') },
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter: new Date(now.getTime() + f.get<number>('days') * 86_400_000),
      isCA: true,
      keyUsage: ['digital signature', 'cert sign', 'crl sign'],
    },
    publicKey: key.keyObject,
    signer: key.keyObject,
  });
  try {
    await writePair({ certFile, keyFile }, certificatePem, keyPem(key.keyObject));
  } catch (e) {
    throw new CommandError(`cannot write the CA (nothing was changed): ${(e as Error).message}`);
  }
  return `CA "${f.get<string>('cn')}" (${f.get<string>('key-type')}) written to ${certFile} and ${keyFile}\n`;
}

/** The CA's certificate and key as tls.X509KeyPair takes them; a CommandError names the file at fault, or both. */
function caPair(certFile: string, certPem: string, keyFile: string, keyPem: string): { ca: ParsedCertificate; issuing: IssuingCa } {
  try {
    const { certDer, key } = x509KeyPair(certPem, keyPem);
    return { ca: parseCertificateDer(certDer), issuing: { certificatePem: encodePem('CERTIFICATE', certDer), privateKey: key } };
  } catch (e) {
    if (!(e instanceof X509KeyPairError)) throw e;
    const who = e.fault === 'cert' ? certFile : e.fault === 'key' ? keyFile : `${certFile} and ${keyFile}`;
    throw new CommandError(`${who}: ${e.message}`);
  }
}

/** The file behind `file` (its links followed), undefined when there is none. */
async function target(file: string): Promise<string | undefined> {
  try {
    return await realpath(file);
  } catch (e) {
    if (isNotExist(e)) return undefined;
    throw new CommandError(osErrorText('stat', file, e));
  }
}

/**
 * An --out that is already there is kept unless --force says otherwise, as `plat ca init` keeps a
 * CA: a certificate written over the wrong file (the CA key, another certificate's only copy) is
 * not something to find out about later. The CA's own files and the CSR are never replaced.
 */
async function checkOut(out: string, inputs: readonly string[], force: boolean): Promise<void> {
  const outTarget = await target(out);
  let present = outTarget !== undefined;
  if (!present) {
    // A dangling link is something too: replacing it would not write where it points.
    try { await lstat(out); present = true; } catch { /* nothing there */ }
  }
  if (!present) return;
  for (const input of inputs) {
    if (outTarget !== undefined && outTarget === (await target(input))) {
      const what = path.resolve(out) === path.resolve(input) ? '' : ` (through a link, ${input})`;
      throw new CommandError(`--out ${out} is an input of this command${what}; choose another file`);
    }
  }
  if (!force) throw new CommandError(`--out ${out} already exists; use --force to replace it`);
}

export async function caSign(argv: readonly string[], now = new Date()): Promise<{ stdout: string }> {
  const f = parse('plat ca sign', argv, signFlags);
  const caDir = f.get<string>('ca-dir');
  const csrFile = f.get<string>('csr');
  if (!caDir) throw new CommandError('--ca-dir is required', 2);
  if (!csrFile) throw new CommandError('--csr is required', 2);
  const read = async (file: string) => {
    try { return await readFile(file, 'utf8'); } catch (e) { throw new CommandError(osErrorText('open', file, e)); }
  };
  const [certFile, keyFile] = [path.join(caDir, 'ca.crt'), path.join(caDir, 'ca.key')];
  const out = f.get<string>('out');
  if (out) await checkOut(out, [certFile, keyFile, csrFile], f.get<boolean>('force'));
  const [csrPem, caCert, caKey] = await Promise.all([read(csrFile), read(certFile), read(keyFile)]);
  const { ca, issuing } = caPair(certFile, caCert, keyFile, caKey);
  let window;
  try {
    window = validityWindow(now, f.get<number>('duration'), ca.notAfter);
  } catch (e) {
    throw new CommandError(`${certFile}: ${(e as Error).message}`);
  }
  const { notBefore, notAfter, capped } = window;
  let result;
  try {
    result = issueCertificate(csrPem, issuing, { usages: f.get<string[]>('usages'), notBefore, notAfter });
  } catch (e) {
    if (e instanceof CryptoError) throw new CommandError(`${csrFile}: ${e.message}`);
    throw e;
  }
  const cappedText = capped ? ` (capped at the CA's expiry; asked for ${formatDuration(f.get<number>('duration'))})` : '';
  if (out) {
    try {
      await writeFileAtomic(out, result.certificatePem, 0o644);
    } catch (e) {
      // As Go's os.WriteFile says it: the file asked for, not the temp file beside it.
      throw new CommandError(`open ${out}: ${ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message}`);
    }
    return { stdout: `certificate written to ${out}, valid until ${notAfter.toISOString().replace('.000Z', 'Z')}${cappedText}\n` };
  }
  return { stdout: result.certificatePem };
}
