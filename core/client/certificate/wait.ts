// client-go csr's WaitForCertificate over plat's CSR follower (core/certificates/csr-wait.ts), with
// its texts: the end of its context (the 15-minute deadline, or the manager giving up a request
// whose template no longer holds) is wait.ErrWaitTimeout; a denied, failed, deleted or replaced
// CSR is wrapped as "cannot watch on the certificate signing request". `plat csr wait` keeps its
// own words (host/commands/csr-wait.ts).
import { CertificateWaitError, waitForIssued, type WaitOptions } from '../../certificates/csr-wait.js';
import { wireBytes } from '../../certificates/csr-object.js';
import type { Logger } from '../../log.js';
import { goClientErrorText } from '../go-url-error.js';
import type { RestClient } from '../rest-client.js';
import { formatCsrError } from './format-error.js';

/** The wait's reflector, named after its call site as client-go's (tools/watch/informerwatcher.go:<line>). */
const WAIT_REFLECTOR = 'core/certificates/csr-wait.ts';
const CSR_TYPE = '*v1.CertificateSigningRequest';

/**
 * WaitForCertificate's own words for its first list (V(2), with `fields`), then its informer's
 * reflector's (client-go v1.32 DefaultWatchErrorHandler through utilruntime.HandleError, named
 * after the call site as the reflector names itself): a failed relist is also warned of on its
 * own, a watch it could not open for now is a V(4) line, a watch ended by an ERROR event a warning
 * (a 429 a V(2) line: it backs off). Errors in client-go's words (`Get "<url>": dial tcp ...`).
 */
export function waitLogHooks(logger: Logger, fields: Record<string, string>): Pick<WaitOptions, 'onRetry' | 'onBackoff' | 'onWatchEnded'> {
  return {
    onRetry: (e, during) => {
      const err = goClientErrorText(e);
      if (during === 'list') { logger.v(2).info(`error fetching v1 certificate signing request: ${err}`, fields); return; }
      let failure = err;
      if (during === 'relist') {
        failure = `failed to list ${CSR_TYPE}: ${err}`;
        logger.warn(`${WAIT_REFLECTOR}: ${failure}`);
      }
      logger.error('Unhandled Error', { err: `${WAIT_REFLECTOR}: Failed to watch ${CSR_TYPE}: ${failure}` });
    },
    onBackoff: (e) => logger.v(4).info(`${WAIT_REFLECTOR}: watch of ${CSR_TYPE} returned ${goClientErrorText(e)} - backing off`),
    onWatchEnded: (e) => {
      if (e.code === 429) logger.v(2).info(`${WAIT_REFLECTOR}: watch of ${CSR_TYPE} returned 429 - backing off`);
      else logger.warn(`${WAIT_REFLECTOR}: watch of ${CSR_TYPE} ended with: ${e.message}`);
    },
  };
}

const ERR_WAIT_TIMEOUT = 'timed out waiting for the condition';

/** The PEM bytes of the issued CSR's status.certificate. */
export async function waitForCertificate(client: RestClient, name: string, o: WaitOptions): Promise<Buffer> {
  try {
    return wireBytes((await waitForIssued(client, name, o)).status?.certificate);
  } catch (e) {
    if (e instanceof CertificateWaitError && (e.timedOut || o.signal?.aborted)) throw new CertificateWaitError(ERR_WAIT_TIMEOUT, e.timedOut);
    throw formatCsrError('cannot watch on the certificate signing request', e);
  }
}
