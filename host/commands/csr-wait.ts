// `plat csr create --wait` and `plat csr wait` wait as the node agent does (core/certificates/
// csr-wait.ts), except that a refused list or watch (401, 403...) ends the command at once, with
// exit 1, where the agent retries it until its deadline: an operator who cannot list CSRs should
// hear so, not see the command hang until --timeout.
import { CertificateWaitError, waitForIssued as wait, type WaitOptions } from '../../core/certificates/csr-wait.js';
import type { Csr } from '../../core/certificates/csr-object.js';
import type { RestClient } from '../../core/client/rest-client.js';
import type { Flags } from '../../core/flags/flag-set.js';
import { CommandError } from './command-error.js';
import { csrFlags } from './csr-connection.js';
import { defineObjectOutput } from './csr-output.js';

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

/** The flags of `plat csr wait`, not yet parsed. */
export function waitFlags(): Flags {
  const S = 'plat csr wait';
  const f = csrFlags(S);
  f.define({ name: 'timeout', type: 'duration', default: 5 * 60_000, section: S, help: 'How long to wait; 0: check once; negative: a week.' });
  f.define({ name: 'out-dir', type: 'string', default: '', section: S, help: 'Write the certificate to DIR/<name>.crt (default: print it).' });
  defineObjectOutput(f, S, 'the certificate, or with --out-dir where it was written');
  return f;
}
