// The kubeconfig's client-certificate / client-key files while the agent runs without rotation:
// client-go re-reads a certificate given as files (ReloadTLSFiles, its caching loader) and, when it
// changes, closes its connections so the next ones present it (the certificate-rotating dialer,
// which also looks every 5 minutes). Here the files are watched, and a usable change is handed
// to the API client, which reconnects with it. A change that is no pair (half-written, mismatched)
// is logged with client-go's work-queue text and the current certificate kept.
import type { Logger } from '../../core/log.js';
import { servingPairProblem, type CertKeyPem } from '../../core/server/serving-pair.js';
import { WatchedFiles } from '../../core/tls/watched-files.js';

/** client-go's CertCallbackRefreshDuration. */
const REFRESH_MS = 5 * 60_000;

/** tls.LoadX509KeyPair's checks on the files' bytes. */
function parsePair([cert, key]: readonly Buffer[]): CertKeyPem {
  const pair = { cert: cert?.toString('utf8') ?? '', key: key?.toString('utf8') ?? '' };
  const problem = servingPairProblem(pair);
  if (problem) throw new Error(problem.reason);
  return pair;
}

/** Watches `certFile`/`keyFile`, whose content the client uses now (`initial`); `use` takes each usable change. */
export function followClientFiles(certFile: string, keyFile: string, initial: CertKeyPem, use: (pair: CertKeyPem) => void,
  log: Logger, o: { readonly reloadIntervalMs?: number } = {}): WatchedFiles<CertKeyPem> {
  const files = WatchedFiles.open({
    name: `client-cert::${certFile}::${keyFile}`, files: [certFile, keyFile], parse: parsePair, log,
    loadedMessage: 'certificate rotation detected, shutting down client connections to start using new credentials',
    reloadIntervalMs: o.reloadIntervalMs ?? REFRESH_MS,
  }, () => initial);
  files.onChange(use);
  log.v(3).info('Starting client certificate rotation controller');
  files.start();
  return files;
}
