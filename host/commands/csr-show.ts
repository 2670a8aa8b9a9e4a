// `plat csr get NAME... [-w]` and `plat csr list [-l ...] [--field-selector ...] [-w]`: the CSR
// table kubectl prints (NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION), or the objects
// as JSON, YAML or names. With -w, they keep watching (get: its one name) and print a line for
// every change (re-watching when the server ends a watch, re-listing when its version is
// compacted) until --timeout, if one is given.
import type { ApiObject } from '../../core/api/meta.js';
import { CSR_RESOURCE, type Csr } from '../../core/certificates/csr-object.js';
import { ApiError, isApiError, objectPath, resourcePath, type List, type RestClient } from '../../core/client/rest-client.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import { sleep } from '../../core/abort-wait.js';
import { setLongTimeout } from '../../core/long-timeout.js';
import { CommandError } from './command-error.js';
import { parseSubcommand } from './subcommand-help.js';
import { checkNames, csrFlags, describeError, openClient, requestTimeoutMs } from './csr-connection.js';
import { runInterruptible } from './interrupt.js';
import { columnWidths, defineShowManagedFields, formatObject, formatRow, objectPrinter } from './csr-output.js';
import { isTable, ServerRows, TABLE_ACCEPT } from './csr-server-table.js';
import { escapeFieldValue } from '../../core/api/selectors/field-selector.js';

type Out = (text: string) => void;
/** Prints one answer: a CSR (-o), or a Table or CSR as table rows. */
type Print = (answer: ApiObject) => void;

/** What a list or watch asks the server for: `metadata.name=X`, or list's -l and --field-selector. */
interface Selectors { fieldSelector?: string; labelSelector?: string }

function defineOutput(f: Flags, section: string): void {
  f.define({ name: 'output', shorthand: 'o', type: 'string', default: '', enum: ['json', 'yaml', 'name', 'wide'], section, help: 'Output format: json, yaml, name or wide (default: a table).' });
  defineShowManagedFields(f, section);
  f.define({ name: 'watch', shorthand: 'w', type: 'bool', default: false, section, help: 'After printing, watch for changes.' });
  f.define({ name: 'timeout', type: 'duration', default: 0, section, help: 'With --watch: stop after this long (0: until interrupted).',
    validate: (v) => ((v as number) < 0 ? 'must not be negative' : undefined) });
  f.define({ name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, section,
    help: 'Ignored, as kubectl get ignores it: CertificateSigningRequests are cluster-scoped.' });
}

/**
 * The object format asked for, '' for the table. `-o wide` adds a table's priority columns, and
 * the CSR printer (upstream's as plat's) has none: kubectl prints the plain table.
 */
function outputFormat(f: Flags): string {
  const format = f.get<string>('output');
  return format === 'wide' ? '' : format;
}

/**
 * As kubectl get NAME...: one name prints that object (-o json|yaml: the object itself), several a
 * table or a List of those found; a name not found is said on stderr after them and makes the exit
 * code 1. -w follows one object only, in kubectl's words.
 */
/** The flags of `plat csr get`, not yet parsed. */
export function getFlags(): Flags {
  const S = 'plat csr get';
  const f = csrFlags(S);
  defineOutput(f, S);
  return f;
}

export async function csrGet(argv: readonly string[], out: Out, err: Out): Promise<number> {
  const f = getFlags();
  const { positional } = parseSubcommand('plat csr get', f, argv);
  if (positional.length === 0) throw new FlagError('one or more NAMEs are required (plat csr list lists them all)');
  checkNames(positional);
  const client = openClient(f);
  try {
    const watch = f.get<boolean>('watch');
    const format = outputFormat(f);
    const table = format === '' ? new ServerRows(f.get<string>('output') === 'wide') : undefined;
    const found: ApiObject[] = [];
    const errors: string[] = [];
    for (const name of positional) {
      try {
        found.push(await client.request<ApiObject>('GET', objectPath(CSR_RESOURCE, name), table ? { headers: { accept: TABLE_ACCEPT } } : {}));
      } catch (e) {
        // kubectl get -w stops at the first error, before printing anything.
        if (!isApiError(e, 'NotFound') || watch) throw e;
        errors.push(describeError(e));
      }
    }
    const printObject = table ? undefined : objectPrinter(format, out, f.get<boolean>('show-managed-fields')) as Print;
    let widths: number[] = [];
    if (printObject && positional.length > 1 && format !== 'name') out(formatObject(asKubectlList(found as Csr[]), format, f.get<boolean>('show-managed-fields')));
    else if (printObject) found.forEach(printObject);
    else if (found.length) {
      const rows = found.flatMap((a) => table!.rows(a));
      widths = printTable([table!.header, ...rows], out);
    }
    if (errors.length) {
      for (const e of errors) err(`plat csr get: ${e}\n`);
      return 1;
    }
    // As kubectl get -w NAME NAME: the objects are printed, then the watch of several refused.
    if (watch && found.length > 1) throw new CommandError('you may only watch a single resource or type of resource at a time');
    // As kubectl's get.go: the watch of one object starts at "0", about now, not at the object's
    // own resourceVersion, which may be older than the store's watch window (a 410, a re-list and
    // the row printed twice); such a watch opens with a synthetic ADDED of the object, already
    // printed above, so its first event is dropped.
    if (watch) await follow(f, client, '0', printObject ?? rowPrinter(widths, out, false, table!), { fieldSelector: `metadata.name=${escapeFieldValue(positional[0]!)}` }, true, table !== undefined);
    return 0;
  } finally {
    client.close();
  }
}

/**
 * The list kubectl prints for `get -o json|yaml`: not the server's CertificateSigningRequestList
 * but the objects wrapped in a v1 List with an empty resourceVersion, as kubectl composes it.
 */
function asKubectlList(items: readonly Csr[]): object {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** How kubectl names the resource in a list's error (mapping.Resource.String()). */
const LISTED = 'certificates.platform/v1, Resource=certificatesigningrequests';

/**
 * cli-runtime's EnhanceListError: a list refused as BadRequest or NotFound says what was listed
 * and with which selectors, still as the server's error (`Error from server (BadRequest): ...`).
 */
function enhanceListError(e: unknown, selectors: Selectors): unknown {
  if (!(e instanceof ApiError) || (e.code !== 400 && e.code !== 404)) return e;
  const { labelSelector = '', fieldSelector = '' } = selectors;
  const message = labelSelector || fieldSelector
    ? `Unable to find ${JSON.stringify(LISTED)} that match label selector ${JSON.stringify(labelSelector)}, field selector ${JSON.stringify(fieldSelector)}: ${e.message}`
    : `Unable to list ${JSON.stringify(LISTED)}: ${e.message}`;
  return new ApiError(e.code, e.reason, message, e.body);
}

/**
 * The CSRs, or with `table` the server's Table of them (kubectl's Accept; a server that prints none
 * answers the list). A Table comes back as the one item of a list, which its printer takes whole.
 */
async function listAll(client: RestClient, selectors: Selectors, table: boolean, signal?: AbortSignal): Promise<List<ApiObject> & ApiObject> {
  const answer = await client.request<unknown>('GET', resourcePath(CSR_RESOURCE), {
    ...(signal ? { signal } : {}), ...(selectors.fieldSelector || selectors.labelSelector ? { query: { ...selectors } } : {}),
    ...(table ? { headers: { accept: TABLE_ACCEPT } } : {}),
  }).catch((e: unknown) => { throw enhanceListError(e, selectors); });
  if (isTable(answer)) return { ...answer, items: [answer], metadata: answer.metadata ?? {} };
  const list = answer as List<ApiObject> & ApiObject;
  // Something at the server's address that is not an API server (a proxy's page, `{}`).
  if (typeof list !== 'object' || list === null || !Array.isArray(list.items)) throw new CommandError('the server did not answer with a list of CertificateSigningRequests');
  list.metadata ??= {};
  return list;
}

/** Prints the rows aligned; returns the column widths, which the rows of a watch keep. */
function printTable(rows: readonly (readonly string[])[], out: Out): number[] {
  const widths = columnWidths(rows);
  out(rows.map((r) => formatRow(r, widths)).join(''));
  return widths;
}

/**
 * A table row per change, in columns as wide as the widest cell seen so far (kubectl's
 * RememberWidths); `header`: nothing was printed yet, the header comes with the first row.
 */
function rowPrinter(widths: number[], out: Out, header: boolean, table: ServerRows): Print {
  let pending = header;
  return (answer) => {
    // The rows first: the first Table of a watch brings the columns the header names.
    const body = table.rows(answer);
    const rows = [...(pending ? [table.header] : []), ...body];
    pending = false;
    columnWidths(rows).forEach((w, i) => { widths[i] = Math.max(widths[i] ?? 0, w); });
    out(rows.map((r) => formatRow(r, widths)).join(''));
  };
}

/**
 * Follows changes from `rv` until `signal` aborts; prints each changed CSR. `dropFirst`: the first
 * event (not a bookmark) is the synthetic ADDED of a watch from "0", not a change.
 */
async function watchChanges(client: RestClient, rv: string, print: Print, selectors: Selectors, signal: AbortSignal, dropFirst: boolean, table: boolean): Promise<void> {
  let version: string | undefined = rv;
  let drop = dropFirst;
  while (!signal.aborted) {
    try {
      if (version === undefined) {
        const list = await listAll(client, selectors, table, signal);
        list.items.forEach(print);
        version = list.metadata.resourceVersion ?? '';
      }
      const timeoutSeconds = Math.floor(300 * (1 + Math.random()));
      for await (const ev of client.watch<ApiObject>(CSR_RESOURCE, { resourceVersion: version, timeoutSeconds, signal, ...selectors, ...(table ? { headers: { accept: TABLE_ACCEPT } } : {}) })) {
        if (ev.type === 'ERROR') {
          const status = ev.object as ApiObject & { code?: number; message?: string };
          if (status.code === 410) { version = undefined; break; }
          throw new CommandError(`watch failed: ${status.message ?? JSON.stringify(status)}`);
        }
        version = ev.object.metadata.resourceVersion ?? version;
        if (ev.type === 'BOOKMARK') continue;
        if (drop) drop = false;
        else print(ev.object);
      }
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof CommandError || (isApiError(e) && e.code >= 400 && e.code < 500 && e.code !== 410 && e.code !== 429)) throw e;
      if (isApiError(e) && e.code === 410) version = undefined;
      await sleep(1000, signal);
    }
  }
}

/** The flags of `plat csr list`, not yet parsed. */
export function listFlags(): Flags {
  const S = 'plat csr list';
  const f = csrFlags(S);
  defineOutput(f, S);
  f.define({ name: 'selector', shorthand: 'l', type: 'string', default: '', section: S,
    help: 'Label selector (label query) to filter on, supports \'=\', \'==\', \'!=\', \'in\', \'notin\' (e.g. -l key1=value1,key2=value2).' });
  f.define({ name: 'field-selector', type: 'string', default: '', section: S,
    help: 'Field selector to filter on (e.g. --field-selector spec.signerName=platform/apiserver-client); the server says which fields it supports.' });
  return f;
}

export async function csrList(argv: readonly string[], out: Out, err: Out): Promise<number> {
  const f = listFlags();
  const { positional } = parseSubcommand('plat csr list', f, argv);
  if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}"`);
  const format = outputFormat(f);
  const selectors: Selectors = {
    ...(f.get<string>('selector') ? { labelSelector: f.get<string>('selector') } : {}),
    ...(f.get<string>('field-selector') ? { fieldSelector: f.get<string>('field-selector') } : {}),
  };
  const client = openClient(f);
  try {
    const table = format === '' ? new ServerRows(f.get<string>('output') === 'wide') : undefined;
    const list = await listAll(client, selectors, table !== undefined);
    let widths: number[] = [];
    const printObject = table ? undefined : objectPrinter(format, out, f.get<boolean>('show-managed-fields')) as Print;
    const rows = table ? list.items.flatMap((a) => table.rows(a)) : [];
    if (printObject && !f.get<boolean>('watch') && format !== 'name') {
      out(formatObject(asKubectlList(list.items as Csr[]), format, f.get<boolean>('show-managed-fields')));
    } else if (printObject) {
      list.items.forEach(printObject);
    } else if (rows.length === 0) {
      // With -w kubectl says nothing, and prints the header with the first row that comes.
      if (!f.get<boolean>('watch')) err('No resources found\n');
    } else {
      widths = printTable([table!.header, ...rows], out);
    }
    if (f.get<boolean>('watch')) await follow(f, client, list.metadata.resourceVersion ?? '', printObject ?? rowPrinter(widths, out, rows.length === 0, table!), selectors, false, table !== undefined);
    return 0;
  } finally {
    client.close();
  }
}

/**
 * Watches until --timeout (exit 0) or a termination signal, which ends the command with exit 1
 * as kubectl get -w's (interrupt.ts).
 */
async function follow(f: Flags, client: RestClient, rv: string, print: Print, selectors: Selectors, dropFirst: boolean, table: boolean): Promise<void> {
  await runInterruptible(async (interrupted) => {
    const stop = new AbortController();
    // kubectl's --request-timeout bounds its watch request (http.Client.Timeout covers the body):
    // the watch ends then, as a quiet exit 0. The sooner of it and --timeout ends this one.
    const requestTimeout = requestTimeoutMs(f.get<string>('request-timeout')) ?? 0;
    const timeout = [f.get<number>('timeout'), requestTimeout].filter((t) => t > 0).reduce((a, b) => Math.min(a, b), Infinity);
    // --timeout=1000h must wait 1000h: a plain setTimeout would stop the watch after 1 ms.
    const cancelTimer = Number.isFinite(timeout) ? setLongTimeout(() => stop.abort(), timeout) : undefined;
    try {
      await watchChanges(client, rv, print, selectors, AbortSignal.any([stop.signal, interrupted]), dropFirst, table);
    } finally {
      cancelTimer?.();
    }
  });
}
