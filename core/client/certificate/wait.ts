// client-go csr's WaitForCertificate over plat's CSR follower (core/certificates/csr-wait.ts), with
// its texts: the end of its context (the 15-minute deadline, or the manager giving up a request
// whose template no longer holds) is wait.ErrWaitTimeout; a denied, failed, deleted or replaced
// CSR is wrapped as "cannot watch on the certificate signing request". `plat csr wait` keeps its
// own words (host/commands/csr-wait.ts).
import { CertificateWaitError, waitForIssued, type WaitOptions } from '../../certificates/csr-wait.js';
import { wireBytes } from '../../certificates/csr-object.js';
import type { RestClient } from '../rest-client.js';
import { formatCsrError } from './format-error.js';

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
