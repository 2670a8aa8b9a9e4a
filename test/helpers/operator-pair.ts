// An operator's own serving pair, made by the machine's openssl (not plat's crypto), and the ways an
// operator puts one into a component's --cert-dir: written before start-up, or renamed over the
// files while it runs (key first, then certificate, as a rotation tool does).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openssl } from './openssl.js';

export interface OperatorPair { readonly cert: string; readonly key: string; readonly fingerprint: string }

/** A self-signed P-256 pair for `cn`, DNS:`cn`, DNS:localhost and IP:127.0.0.1, valid 30 days. */
export function opensslServingPair(cn: string): OperatorPair {
  const dir = mkdtempSync(path.join(tmpdir(), 'plat-operator-pair-'));
  try {
    openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, 'k'), '-out', path.join(dir, 'c'),
      '-subj', `/CN=${cn}`, '-addext', `subjectAltName=DNS:${cn},DNS:localhost,IP:127.0.0.1`, '-days', '30']);
    const cert = readFileSync(path.join(dir, 'c'), 'utf8');
    return { cert, key: readFileSync(path.join(dir, 'k'), 'utf8'), fingerprint: new X509Certificate(cert).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `pair` as <dir>/<base>.crt and .key. */
export function writeOperatorPair(dir: string, base: string, pair: { cert: string; key: string }): void {
  writeFileSync(path.join(dir, `${base}.key`), pair.key, { mode: 0o600 });
  writeFileSync(path.join(dir, `${base}.crt`), pair.cert);
}

/** Writes `pair` beside <dir>/<base>.crt and .key and renames it over them, key first. */
export function renameOperatorPair(dir: string, base: string, pair: { cert: string; key: string }): void {
  for (const [ext, data] of [['key', pair.key], ['crt', pair.cert]] as const) {
    const tmp = path.join(dir, `.${base}.${ext}.new`);
    writeFileSync(tmp, data, { mode: ext === 'key' ? 0o600 : 0o644 });
    renameSync(tmp, path.join(dir, `${base}.${ext}`));
  }
}

/** The bytes of <dir>/<base>.crt and .key. */
export function pairOnDisk(dir: string, base: string): { cert: string; key: string } {
  return { cert: readFileSync(path.join(dir, `${base}.crt`), 'utf8'), key: readFileSync(path.join(dir, `${base}.key`), 'utf8') };
}
