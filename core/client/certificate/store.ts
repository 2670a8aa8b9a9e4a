// client-go's certificate file store (k8s-behaviour §5.3): each pair is written to a dated file
// (certificates, then the key; mode 0600) and `<prefix>-current.pem` is an absolute symlink to the
// newest, swapped through `<prefix>-updated.pem` so that a crash leaves either the old or the new
// link, never none (a dangling `updated` is finished at the next start). A regular file where a
// link belongs is an operator's: updates fail rather than delete it.
import { X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { decodePemBlocks, encodePem } from '../../crypto/index.js';
import { x509KeyPair } from '../../crypto/x509-key-pair.js';
import type { Logger } from '../../log.js';
import { goQuote } from '../../go-quote.js';
import { writeFileAtomicSync } from '../../pki/write-file-atomic.js';
import { makeDirSync } from '../../make-dir.js';

/** A certificate chain and its key, as read from or written to the store. */
export interface StoredPair {
  /** PEM, leaf first. */
  readonly certPem: string;
  /** PEM of the private key. */
  readonly keyPem: string;
  readonly leaf: X509Certificate;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export class NoCertKeyError extends Error {}

export interface FileStoreOptions {
  readonly dir: string;
  /** `nodeagent-client` or `nodeagent-server`. */
  readonly prefix: string;
  /** Files given by the operator (--tls-cert-file / --tls-private-key-file), read second. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** Where current() says which files it reads, as klog.Infof does upstream. */
  readonly logger?: Logger;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Go's `2006-01-02-15-04-05` in local time. */
export function datedStamp(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
}

/** The key as upstream writes it: SEC1 `EC PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`, else PKCS#8. */
export function keyToPem(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'ec') return key.export({ type: 'sec1', format: 'pem' }).toString();
  if (type === 'rsa') return key.export({ type: 'pkcs1', format: 'pem' }).toString();
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * tls.X509KeyPair of PEM text (the leaf is the first CERTIFICATE block, the key the first PRIVATE
 * KEY block); throws tls's text, after `where: ` when given.
 */
export function pairFromPem(certPem: string, keyPem: string, where?: string): StoredPair {
  let key: KeyObject;
  let leaf: X509Certificate;
  try {
    let certDer: Uint8Array;
    ({ certDer, key } = x509KeyPair(certPem, keyPem));
    leaf = new X509Certificate(Buffer.from(certDer));
  } catch (e) {
    throw new Error(where ? `${where}: ${(e as Error).message}` : (e as Error).message);
  }
  const onlyCerts = decodePemBlocks(certPem).filter((b) => b.label === 'CERTIFICATE').map((b) => encodePem('CERTIFICATE', b.der)).join('');
  return { certPem: onlyCerts, keyPem: keyToPem(key), leaf, notBefore: new Date(leaf.validFrom), notAfter: new Date(leaf.validTo) };
}

export class FileStore {
  constructor(private readonly o: FileStoreOptions) {}

  get currentPath(): string { return path.join(this.o.dir, `${this.o.prefix}-current.pem`); }
  get #updatedPath(): string { return path.join(this.o.dir, `${this.o.prefix}-updated.pem`); }

  /** The pair in force, in upstream's load order (each place logged as it is read); throws NoCertKeyError when there is none. */
  current(): StoredPair {
    this.#recover();
    const log = this.o.logger;
    if (existsSync(this.currentPath)) {
      log?.info(`Loading cert/key pair from ${goQuote(this.currentPath)}.`);
      const pem = readFileSync(this.currentPath, 'utf8');
      try { return pairFromPem(pem, pem); } catch (e) {
        throw new Error(`could not convert data from ${goQuote(this.currentPath)} into cert/key pair: ${(e as Error).message}`);
      }
    }
    const { certFile, keyFile } = this.o;
    if (certFile && keyFile && existsSync(certFile) && existsSync(keyFile)) {
      log?.info(`Loading cert/key pair from (${goQuote(certFile)}, ${goQuote(keyFile)}).`);
      return pairFromPem(readFileSync(certFile, 'utf8'), readFileSync(keyFile, 'utf8'));
    }
    const crt = path.join(this.o.dir, `${this.o.prefix}.crt`);
    const keyPath = path.join(this.o.dir, `${this.o.prefix}.key`);
    if (existsSync(crt) && existsSync(keyPath)) {
      log?.info(`Loading cert/key pair from (${goQuote(crt)}, ${goQuote(keyPath)}).`);
      return pairFromPem(readFileSync(crt, 'utf8'), readFileSync(keyPath, 'utf8'));
    }
    // Upstream names the directories here, not the files it looked for in them.
    throw new NoCertKeyError(`no cert/key files read at ${goQuote(this.currentPath)}, (${goQuote(certFile ?? '')}, ${goQuote(keyFile ?? '')}) or (${goQuote(this.o.dir)}, ${goQuote(this.o.dir)})`);
  }

  /** Writes a new dated pair and makes it current; returns it as read back. */
  update(certPem: string, keyPem: string, now = new Date()): StoredPair {
    const pair = pairFromPem(certPem, keyPem, 'the new certificate');
    makeDirSync(this.o.dir, 0o700);
    const dated = path.resolve(this.o.dir, `${this.o.prefix}-${datedStamp(now)}.pem`);
    // Through a fresh 0600 temp file: a file already at the dated name (a second rotation within the
    // second, or something planted there) is replaced, never written through, so the key neither
    // follows a symlink out of the directory nor sits for a moment in a file others may read.
    writeFileAtomicSync(dated, pair.certPem + pair.keyPem, 0o600);
    this.#updateSymlink(dated);
    return pair;
  }

  /**
   * updateSymlink: a regular file at `current` or `updated` is someone's, never the store's, so the
   * update fails rather than removing it (upstream's texts).
   */
  #updateSymlink(dated: string): void {
    const current = this.currentPath;
    const updated = this.#updatedPath;
    const currentKind = kindOf(current);
    if (currentKind === 'file') throw new Error(`expected ${goQuote(current)} to be a symlink but it is a file`);
    const updatedKind = kindOf(updated);
    if (updatedKind === 'file') throw new Error(`expected ${goQuote(updated)} to be a symlink but it is a file`);
    if (updatedKind === 'link') unlinkSync(updated);
    symlinkSync(dated, updated);
    if (currentKind === 'link') unlinkSync(current);
    renameSync(updated, current);
  }

  /** A crash between removing `current` and renaming `updated`: finish the swap. */
  #recover(): void {
    if (existsSync(this.currentPath)) return;
    const kind = kindOf(this.#updatedPath);
    if (kind === 'file') throw new Error(`expected ${goQuote(this.#updatedPath)} to be a symlink but it is a file`);
    if (kind === 'link') renameSync(this.#updatedPath, this.currentPath);
  }
}

/** What lstat finds: anything not a symlink counts as a file, as upstream's mode check has it. */
function kindOf(p: string): 'none' | 'link' | 'file' {
  try { return lstatSync(p).isSymbolicLink() ? 'link' : 'file'; } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw e;
  }
}
