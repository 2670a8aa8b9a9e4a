// `plat csr create --wait` and `plat csr wait` wait as the node agent does (core/certificates/
// csr-wait.ts); its errors end the command with exit 1.
import { CertificateWaitError, waitForIssued as wait, type WaitOptions } from '../../core/certificates/csr-wait.js';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { RestClient } from '../../core/client/rest-client.js';
import { CommandError } from './ca.js';

export { issued } from '../../core/certificates/csr-wait.js';

/** The issued CSR. `timeoutHint` follows the message when the wait timed out (the request is still there). */
export async function waitForIssued(client: RestClient, name: string, o: WaitOptions & { timeoutHint?: string }): Promise<Csr> {
  try {
    return await wait(client, name, o);
  } catch (e) {
    if (e instanceof CertificateWaitError) throw new CommandError(e.timedOut && o.timeoutHint ? `${e.message}; ${o.timeoutHint}` : e.message);
    throw e;
  }
}
