// `plat csr create --wait` and `plat csr wait` wait as the node agent does (core/certificates/
// csr-wait.ts), except that a refused list or watch (401, 403...) ends the command at once, with
// exit 1, where the agent retries it until its deadline: an operator who cannot list CSRs should
// hear so, not see the command hang until --timeout.
import { CertificateWaitError, waitForIssued as wait, type WaitOptions } from '../../core/certificates/csr-wait.js';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { CommandError } from './ca.js';

export { issued } from '../../core/certificates/csr-wait.js';

/** The issued CSR. `timeoutHint` follows the message when the wait timed out (the request is still there). */
export async function waitForIssued(client: RestClient, name: string, o: Omit<WaitOptions, 'refusals'> & { timeoutHint?: string }): Promise<Csr> {
  try {
    return await wait(client, name, { ...o, refusals: 'fail' });
  } catch (e) {
    if (e instanceof CertificateWaitError) throw new CommandError(e.timedOut && o.timeoutHint ? `${e.message}; ${o.timeoutHint}` : e.message);
    throw e;
  }
}
