// `plat csr approve|deny NAME...`: kubectl certificate approve/deny (k8s-behaviour §7). Each CSR
// is read, the decision appended as a condition {type, status True, reason, message,
// lastUpdateTime now} and written through the approval subresource; a CSR already carrying the
// opposite decision is refused, one already carrying this decision is left alone unless --force
// (which writes it back unchanged), and a write that loses a race (409) is retried on a fresh read
// up to 10 times. Names are handled one by one; any failure makes the exit code 1.
import { rfc3339 } from '../../core/api/meta.js';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import { CommandError } from './command-error.js';
import { parseSubcommand } from './subcommand-help.js';
import { checkNames, csrFlags, describeError, openClient } from './csr-connection.js';
import { CSR_DISPLAY, defineObjectOutput, objectPrinter } from './csr-output.js';

export type Decision = 'approve' | 'deny';

interface DecisionSpec { type: 'Approved' | 'Denied'; opposite: 'Approved' | 'Denied'; reason: string; message: string; past: string }

export const DECISIONS: Record<Decision, DecisionSpec> = {
  approve: { type: 'Approved', opposite: 'Denied', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.', past: 'approved' },
  deny: { type: 'Denied', opposite: 'Approved', reason: 'KubectlDeny', message: 'This CSR was denied by kubectl certificate deny.', past: 'denied' },
};

const MAX_CONFLICT_RETRIES = 10;

/**
 * addConditionIfNeeded: the CSR with the condition appended and false, or unchanged and true when
 * it already has one of this type; throws when it has the opposite decision.
 */
export function addConditionIfNeeded(csr: Csr, d: Pick<DecisionSpec, 'type' | 'opposite'>, reason: string, message: string, now: Date): { csr: Csr; hadCondition: boolean } {
  let had = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === d.opposite) throw new CommandError(`certificate signing request "${csr.metadata.name ?? ''}" is already ${c.type}`);
    if (c.type === d.type) had = true;
  }
  if (had) return { csr, hadCondition: true };
  const status = csr.status ?? {};
  return {
    csr: { ...csr, status: { ...status, conditions: [...(status.conditions ?? []), { type: d.type, status: 'True', reason, message, lastUpdateTime: rfc3339(now) }] } },
    hadCondition: false,
  };
}

/**
 * The CSR as kubectl prints it afterwards: the builder's copy as read before the change (the
 * condition goes onto a separate typed copy), refreshed only by a conflict's re-read; never the
 * write's answer.
 */
async function decideOne(client: RestClient, name: string, d: DecisionSpec, o: { reason: string; message: string; force: boolean }): Promise<Csr> {
  for (let i = 0; ; i++) {
    const current = await client.get<Csr>(CSR_RESOURCE, name);
    const { csr, hadCondition } = addConditionIfNeeded(current, d, o.reason, o.message, new Date());
    if (hadCondition && !o.force) return current;
    try {
      await client.update(CSR_RESOURCE, csr, 'approval');
      return current;
    } catch (e) {
      if (isApiError(e, 'Conflict') && i < MAX_CONFLICT_RETRIES) continue;
      throw e;
    }
  }
}

/** The flags of `plat csr approve` or `deny`, not yet parsed. */
export function decideFlags(decision: Decision): Flags {
  const S = `plat csr ${decision}`;
  const d = DECISIONS[decision];
  const f = csrFlags(S);
  f.define({ name: 'reason', type: 'string', default: d.reason, section: S, help: 'Reason of the condition.' });
  f.define({ name: 'message', type: 'string', default: d.message, section: S, help: 'Message of the condition.' });
  f.define({ name: 'force', type: 'bool', default: false, section: S, help: `Update the CSR even if it is already ${d.past}.` });
  defineObjectOutput(f, S, `"<kind>.<group>/NAME ${d.past}"`);
  return f;
}

export async function csrDecide(decision: Decision, argv: readonly string[], out: (t: string) => void, err: (t: string) => void): Promise<number> {
  const S = `plat csr ${decision}`;
  const d = DECISIONS[decision];
  const f = decideFlags(decision);
  const { positional } = parseSubcommand(S, f, argv);
  if (positional.length === 0) throw new FlagError('one or more CSRs must be specified as <name>');
  checkNames(positional);
  const client = openClient(f);
  const format = f.get<string>('output');
  const print = format ? objectPrinter(format, out, f.get<boolean>('show-managed-fields')) : (csr: Csr) => out(`${CSR_DISPLAY}/${csr.metadata.name ?? ''} ${d.past}\n`);
  let failed = false;
  try {
    for (const name of positional) {
      try {
        print(await decideOne(client, name, d, { reason: f.get<string>('reason'), message: f.get<string>('message'), force: f.get<boolean>('force') }));
      } catch (e) {
        failed = true;
        err(`${S}: ${describeError(e)}\n`);
      }
    }
  } finally {
    client.close();
  }
  return failed ? 1 : 0;
}
