// `plat csr ...`: create, inspect, decide on and wait for CertificateSigningRequests through the
// API with a kubeconfig's credentials (what kubectl does for certificates.k8s.io, which it cannot
// do for certificates.platform). Exit codes: 0 done, 1 refused or failed (a denial, a timeout, an
// API error), 2 command-line misuse.
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { FlagError } from '../../core/flags/flag-set.js';
import { CommandError } from './command-error.js';
import { parseSubcommand } from './subcommand-help.js';
import { checkNames, describeError, openClient } from './csr-connection.js';
import { DEFAULT_KUBECONFIG } from './kubeconfig-flags.js';
import { makeOutDir } from './out-dir.js';
import { issued, waitFlags, waitForIssued } from './csr-wait.js';
import { CSR_HELP } from './csr-help.js';
import { splitSubcommand, subcommandUsage } from './subcommand-usage.js';
import { objectPrinter } from './csr-output.js';
import { wireBytes } from '../../core/certificates/csr-object.js';
import { Interrupted, runInterruptible } from './interrupt.js';
import { certificateFileOf, keyBeside, keyFileOf, refuseExistingCertificate, writeIssuedCertificate } from './certificate-file.js';
import { timeoutSignal } from '../../core/long-timeout.js';
import { timedOutText } from '../../core/certificates/csr-wait.js';

export const CSR_USAGE = `Usage:
  plat csr create --signer NAME [--name NAME] [--cn CN] [--org O]... [--dns NAME,...]... [--ip ADDR,...]...
                  [--key-type p256|ed25519|rsa2048] [--usages U,...] [--duration D] [--wait] [--timeout 5m0s] [--out-dir DIR]
                  [-o json|yaml|name]
  plat csr get NAME... [-w (one NAME)] [-o json|yaml|name|wide] [--timeout D]
  plat csr list [-l SELECTOR] [--field-selector SELECTOR] [-w] [-o json|yaml|name|wide] [--timeout D]
  plat csr approve NAME... [--reason R] [--message M] [--force] [-o json|yaml|name]
  plat csr deny NAME... [--reason R] [--message M] [--force] [-o json|yaml|name]
  plat csr wait NAME [--timeout 5m0s (0: check once; negative: a week)] [--out-dir DIR] [-o json|yaml|name]

Every command takes --kubeconfig FILE (default: $PLATCONFIG, else $KUBECONFIG, each a merged ':' list as kubectl's,
else ~/.kube/config, else ${DEFAULT_KUBECONFIG}), --context, --cluster, --user, --as USER, --as-group GROUP (repeatable),
--as-uid UID and --request-timeout (default 0: no limit) as kubectl's.
`;

const WEEK_MS = 7 * 24 * 3600_000;

/** `wait --timeout 0`: the CSR if issued now; a denial or failure as the wait says it. */
function issuedNow(csr: Csr, name: string): Csr {
  const done = issued(csr, name, undefined);
  if (!done) throw new CommandError(`certificate signing request "${name}" is not issued (--timeout 0 checks once)`);
  return done;
}

async function csrWait(argv: readonly string[], out: (t: string) => void, err: (t: string) => void): Promise<number> {
  const f = waitFlags();
  const { positional } = parseSubcommand('plat csr wait', f, argv);
  if (positional.length !== 1) throw new FlagError('exactly one NAME is required');
  checkNames(positional);
  const name = positional[0]!;
  const dir = f.get<string>('out-dir');
  const certFile = dir ? certificateFileOf(dir, name) : '';
  if (dir) refuseExistingCertificate(certFile);
  const client = openClient(f);
  try {
    // kubectl wait's --timeout: 0 checks once, a negative value waits a week; the first read is
    // inside it too (a server that never answers it must not hold the command past it).
    const timeout = f.get<number>('timeout');
    const done = await runInterruptible(async (signal) => {
      if (timeout === 0) return issuedNow(await client.get<Csr>(CSR_RESOURCE, name, undefined, { signal }), name);
      const timeoutMs = timeout < 0 ? WEEK_MS : timeout;
      const ends = Date.now() + timeoutMs;
      const expired = timeoutSignal(timeoutMs);
      let csr: Csr;
      try {
        csr = await client.get<Csr>(CSR_RESOURCE, name, undefined, { signal: AbortSignal.any([signal, expired]) });
      } catch (e) {
        if (expired.aborted && !signal.aborted) throw new CommandError(timedOutText(timeoutMs, name));
        throw e;
      }
      return waitForIssued(client, name, { uid: csr.metadata.uid, timeoutMs: Math.max(1, ends - Date.now()), timeoutText: timedOutText(timeoutMs, name), signal });
    });
    const cert = wireBytes(done.status?.certificate);
    const format = f.get<string>('output');
    if (dir) {
      await makeOutDir(dir);
      await writeIssuedCertificate(certFile, cert, await keyBeside(keyFileOf(dir, name)));
      // With -o, stdout carries the object alone, as kubectl wait -o prints it.
      (format ? err : out)(`certificate written to ${certFile}\n`);
    }
    if (format) objectPrinter(format, out, f.get<boolean>('show-managed-fields'))(done);
    else if (!dir) out(cert.toString('utf8'));
    return 0;
  } finally {
    client.close();
  }
}

/**
 * A reader that went away (`plat csr list -w | head -1`, then a change): Go's kubectl dies of
 * SIGPIPE on its next write. Node ignores SIGPIPE and reports EPIPE as an error event of the
 * stream, which nobody handles: a crash with a stack trace. plat exits quietly with 1 instead: it
 * cannot die of a signal it ignores, and 141 (what a shell shows for a SIGPIPE death) would claim
 * a signal to a parent that waits for the process; 1 is the README's "failed", which is true, as
 * the output was not all delivered.
 */
function exitQuietlyOnClosedOutput(): void {
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(1);
    throw e;
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
}

export async function runCsr(argv: readonly string[]): Promise<number> {
  exitQuietlyOnClosedOutput();
  const [sub, rest] = splitSubcommand(argv);
  const out = (t: string) => { process.stdout.write(t); };
  const err = (t: string) => { process.stderr.write(t); };
  // No subcommand, an unknown one or help asked for: as the other command groups (subcommand-usage.ts).
  const usage = subcommandUsage('csr', argv, CSR_USAGE, CSR_HELP);
  if (usage !== undefined) return usage;
  try {
    switch (sub) {
      // Each subcommand's modules load when it runs: `create` needs the crypto core to make a key,
      // `list` and the others only the API client (with the rest: 156 -> 130 modules, 0.27 -> 0.24 s).
      case 'create': return await (await import('./csr-create.js')).csrCreate(rest, out, err);
      case 'get': return await (await import('./csr-show.js')).csrGet(rest, out, err);
      case 'list': return await (await import('./csr-show.js')).csrList(rest, out, err);
      case 'approve': case 'deny': return await (await import('./csr-decide.js')).csrDecide(sub, rest, out, err);
      case 'wait': return await csrWait(rest, out, err);
      default: err(`plat csr: unknown command "${sub}"\n${CSR_USAGE}`); return 2;
    }
  } catch (e) {
    if (e instanceof FlagError) { err(`plat csr ${sub}: ${e.message}\n`); return e.exitCode; }
    // As kubectl interrupted: nothing more to say.
    if (e instanceof Interrupted) return e.exitCode;
    err(`plat csr ${sub}: ${describeError(e)}\n`);
    return e instanceof CommandError ? e.exitCode : 1;
  }
}
