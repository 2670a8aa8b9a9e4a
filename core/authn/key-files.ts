// Reading --service-account-key-file and --service-account-signing-key-file (API server) and
// --service-account-private-key-file (controller manager): PEM files of RSA or ECDSA keys, private
// or public (upstream's keyutil.PublicKeysFromFile / PrivateKeyFromFile).
import { readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { algorithmForKey } from './jwt.js';
import { osErrorText } from '../go-os-error.js';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;
const PRIVATE = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);
const PUBLIC = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY']);

export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

/** A key file that cannot be read; the message is Go's os error (keyutil's os.ReadFile). */
export class UnreadableKeyFileError extends Error {
  override readonly name = 'UnreadableKeyFileError';
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UnreadableKeyFileError(osErrorText('open', file, e));
  }
}

/** A key usable for JWS: RSA, or ECDSA on P-256, P-384 or P-521. */
function checkKind(key: KeyObject, file: string): KeyObject {
  try {
    algorithmForKey(key);
  } catch {
    throw new KeyFileError(`${file}: unsupported key type ${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` (${key.asymmetricKeyDetails.namedCurve})` : ''}; RSA or ECDSA P-256/P-384/P-521 keys are required`);
  }
  return key;
}

/** Every public key in a PEM file (public keys as they are, private keys' public halves). */
export function publicKeysFromFile(file: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const m of read(file).matchAll(PEM_BLOCK)) {
    const type = m[1]!;
    if (!PRIVATE.has(type) && !PUBLIC.has(type)) continue;
    try {
      keys.push(checkKind(createPublicKey(m[0]), file));
    } catch (e) {
      if (e instanceof KeyFileError) throw e;
      throw new KeyFileError(`${file}: invalid ${type} block: ${(e as Error).message}`);
    }
  }
  if (keys.length === 0) throw new KeyFileError(`${file}: no RSA or ECDSA public or private key found in PEM`);
  return keys;
}

/** The one private key of the token issuer. */
export function privateKeyFromFile(file: string): KeyObject {
  const blocks = [...read(file).matchAll(PEM_BLOCK)].filter((m) => PRIVATE.has(m[1]!));
  if (blocks.length === 0) throw new KeyFileError(`${file}: no RSA or ECDSA private key found in PEM`);
  try {
    return checkKind(createPrivateKey(blocks[0]![0]), file);
  } catch (e) {
    if (e instanceof KeyFileError) throw e;
    throw new KeyFileError(`${file}: invalid private key: ${(e as Error).message}`);
  }
}

/** Whether a file holds a usable key (the TLS key default of --service-account-key-file). */
export function holdsKey(file: string): boolean {
  try { return publicKeysFromFile(file).length > 0; } catch { return false; }
}
