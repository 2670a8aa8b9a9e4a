// What upstream's CA loader (dynamiccertificates.DynamicCertKeyPairContent, purpose
// "csr-controller") checks before the CA provider parses anything: the cert file read, then the
// key file, neither empty, and tls.X509KeyPair on the two. Its errors are the loader's own texts;
// on the first read (when the controller is built) newCAProvider wraps them naming the cert file
// whichever file is at fault, and on a reload the loader's queue logs them as `key failed with : <error>`.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { osErrorText } from '../../core/go-os-error.js';
import { goQuote } from '../../core/go-quote.js';
import { checkX509KeyPair } from '../../core/crypto/x509-key-pair.js';

/** A pair the loader refuses; `loaderError` is its text, the message newCAProvider's. */
export class CaLoaderError extends Error {
  constructor(certFile: string, readonly loaderError: string) {
    super(`error reading CA cert file ${goQuote(certFile)}: ${loaderError}`);
  }
}

/** Both files' bytes, the cert file read first as upstream reads it (so its error wins); throws CaLoaderError. */
export function readCaFilesSync(certFile: string, keyFile: string): { certBytes: Buffer; keyBytes: Buffer } {
  const read = (file: string) => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new CaLoaderError(certFile, osErrorText('open', file, e));
    }
  };
  const certBytes = read(certFile);
  return { certBytes, keyBytes: read(keyFile) };
}

/** readCaFilesSync without blocking the event loop. */
export async function readCaFiles(certFile: string, keyFile: string): Promise<{ certBytes: Buffer; keyBytes: Buffer }> {
  const read = async (file: string) => {
    try {
      return await readFile(file);
    } catch (e) {
      throw new CaLoaderError(certFile, osErrorText('open', file, e));
    }
  };
  const certBytes = await read(certFile);
  return { certBytes, keyBytes: await read(keyFile) };
}

/** DynamicCertKeyPairContent.Name() of the signing controller's loader: what its messages and upstream's CA provider's name. */
export const caLoaderName = (certFile: string, keyFile: string): string => `csr-controller::${certFile}::${keyFile}`;

/** The loader's checks on the files' bytes; throws CaLoaderError. */
export function checkCaFiles(certFile: string, certBytes: Uint8Array, keyFile: string, keyBytes: Uint8Array): void {
  if (certBytes.length === 0 || keyBytes.length === 0) {
    throw new CaLoaderError(certFile, `missing content for serving cert ${goQuote(caLoaderName(certFile, keyFile))}`);
  }
  try {
    checkX509KeyPair(certBytes, keyBytes);
  } catch (e) {
    throw new CaLoaderError(certFile, (e as Error).message);
  }
}
