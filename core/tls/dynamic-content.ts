// The dynamic contents upstream's servers are built from (dynamiccertificates'
// NewDynamicServingContentFromFiles, NewDynamicSNIContentFromFiles, NewDynamicCAContentFromFile),
// with their names (`purpose::cert::key`, `purpose::file`), their checks and texts on a reload,
// and their V(2) lines when new content is taken, the first time (at start-up, as their
// constructors' first load logs it) included. Start-up keeps each caller's own loading and
// errors; these take over once the process runs.
import { goQuote } from '../go-quote.js';
import type { Logger } from '../log.js';
import { loadServingPair, servingPairProblem, type CertKeyPem, type NamedFile } from '../server/serving-pair.js';
import { WatchedFiles, type WatchedFilesOptions } from './watched-files.js';

/** DynamicCertKeyPairContent's V(2) line for each pair it takes. */
export const CERT_KEY_LOADED = 'Loaded a new cert/key pair';

/** DynamicCertKeyPairContent's line when it cannot watch its files. */
export const CERT_KEY_WATCH_FAILED = 'Failed to watch cert and key file, will retry later';

export interface DynamicOptions {
  /** How often the files are re-read whatever the watches say (tests push it out of the way). */
  readonly reloadIntervalMs?: number;
}

/** DynamicCertKeyPairContent.loadCertKeyPair's checks on the files' bytes. */
export function parseServingPair(name: string, [cert, key]: readonly Buffer[]): CertKeyPem {
  if (!cert?.length || !key?.length) throw new Error(`missing content for serving cert ${goQuote(name)}`);
  const pair = { cert: cert.toString('utf8'), key: key.toString('utf8') };
  const problem = servingPairProblem(pair);
  if (problem) throw new Error(problem.reason);
  return pair;
}

/** A certificate/key file pair, as `purpose` (serving-cert, sni-serving-cert); `load` is start-up's reading. */
export function watchServingPair(
  purpose: string, certFile: string, keyFile: string, load: () => CertKeyPem, log: Logger, o: DynamicOptions = {},
): WatchedFiles<CertKeyPem> {
  const name = `${purpose}::${certFile}::${keyFile}`;
  return loggedOpen({
    name, files: [certFile, keyFile], log, loadedMessage: CERT_KEY_LOADED,
    watchFailedMessage: CERT_KEY_WATCH_FAILED,
    parse: (contents) => parseServingPair(name, contents),
    ...(o.reloadIntervalMs ? { reloadIntervalMs: o.reloadIntervalMs } : {}),
  }, load);
}

/** WatchedFiles.open, then the V(2) line of NewDynamic*Content's first load (none when it throws). */
function loggedOpen<T>(o: WatchedFilesOptions<T>, load: () => T): WatchedFiles<T> {
  const files = WatchedFiles.open(o, load);
  o.log.v(2).info(o.loadedMessage, { name: o.name });
  return files;
}

/** --tls-cert-file/--tls-private-key-file and the node agent's tlsCertFile/tlsPrivateKeyFile: loadServingPair at start-up. */
export function watchServingFiles(cert: NamedFile, key: NamedFile, log: Logger, o: DynamicOptions = {}): WatchedFiles<CertKeyPem> {
  return watchServingPair('serving-cert', cert.path, key.path, () => loadServingPair(cert, key), log, o);
}

/**
 * A CA bundle file, as `purpose` (client-ca-bundle, request-header): `load` is start-up's reading,
 * `parse` the same checks on a reload's bytes, whose error upstream's newCABundleAndVerifier wraps.
 */
export function watchCaFile<T>(
  purpose: string, file: string, load: () => T, parse: (bundle: Buffer) => T, log: Logger, o: DynamicOptions = {},
): WatchedFiles<T> {
  const name = `${purpose}::${file}`;
  return loggedOpen<T>({
    name, files: [file], log, loadedMessage: 'Loaded a new CA Bundle and Verifier',
    watchFailedMessage: 'Failed to watch CA file, will retry later',
    parse: ([bundle]) => {
      if (!bundle?.length) throw new Error(`missing content for CA bundle ${goQuote(name)}`);
      try {
        return parse(bundle);
      } catch (e) {
        throw new Error(`unable to load CA bundle for ${goQuote(name)}: ${(e as Error).message}`);
      }
    },
    ...(o.reloadIntervalMs ? { reloadIntervalMs: o.reloadIntervalMs } : {}),
  }, load);
}
