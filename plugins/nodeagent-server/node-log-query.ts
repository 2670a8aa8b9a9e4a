// The node log query on /logs/ (enableSystemLogQuery; upstream kubelet_server_journal.go): query=
// names services (journald units, or log files found by upstream's heuristics) or one file below the
// log directory, with sinceTime, untilTime, tailLines, pattern and boot for services. Parameters are
// parsed and validated with upstream's field paths and messages (400 for unparsable values, 406 for
// invalid combinations); services are read with journalctl, each service and its options passed as
// separate arguments (never through a shell), all of it bounded by 30 seconds.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, constants as zlibConstants } from 'node:zlib';
import type Koa from 'koa';
import { aggregateFieldErrors, fieldError, goQuote, type FieldError } from '../../core/api/field-errors.js';

const MAX_TAIL_LINES = 100_000;
const MAX_SERVICE_LENGTH = 256;
const MAX_SERVICES = 4;
const QUERY_DEADLINE_MS = 30_000;
const UNSAFE_SERVICE_CHARACTERS = /[^a-zA-Z\-_0-9@]+/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface NodeLogQuery {
  readonly services: string[];
  readonly files: string[];
  readonly sinceTime?: Date;
  readonly untilTime?: Date;
  readonly tailLines?: number;
  readonly boot?: number;
  readonly pattern: string;
}

/** Go's %#v of a string slice, as field.Invalid prints a []string value. */
const goStrings = (v: readonly string[]): string => `[]string{${v.map(goQuote).join(', ')}}`;
const invalidRaw = (field: string, rendered: string, detail: string): FieldError =>
  ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${rendered}: ${detail}` });

const hasOptions = (q: NodeLogQuery) =>
  q.sinceTime !== undefined || q.untilTime !== undefined || q.tailLines !== undefined || q.boot !== undefined || q.pattern !== '';

function atoi(field: string, raw: string, errs: FieldError[]): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    errs.push(fieldError.invalid(field, raw, `strconv.Atoi: parsing ${goQuote(raw)}: ${/^[+-]?[0-9]+$/.test(raw) ? 'value out of range' : 'invalid syntax'}`));
    return undefined;
  }
  return Number(raw);
}

function rfc3339(field: string, raw: string, errs: FieldError[]): Date | undefined {
  const t = RFC3339.test(raw) ? new Date(raw) : undefined;
  if (!t || Number.isNaN(t.getTime())) {
    errs.push(fieldError.invalid(field, raw, 'invalid time format'));
    return undefined;
  }
  return t;
}

/** newNodeLogQuery: undefined (and no errors) when the request carries none of the query's parameters. */
export function parseNodeLogQuery(query: URLSearchParams): { query?: NodeLogQuery; errors: FieldError[] } {
  const errs: FieldError[] = [];
  const services: string[] = [];
  const files: string[] = [];
  const queries = query.getAll('query');
  for (const q of queries) {
    // A slash or backslash hints at a file; a bare name is a service (its file is found by heuristics).
    if (/[/\\]/.test(q)) files.push(q);
    else if (q.trim() !== '') services.push(q);
  }
  if (query.has('query') && files.length === 0 && services.length === 0) errs.push(invalidRaw('query', goStrings(queries), 'query cannot be empty'));
  const since = query.get('sinceTime') ? rfc3339('sinceTime', query.get('sinceTime')!, errs) : undefined;
  const until = query.get('untilTime') ? rfc3339('untilTime', query.get('untilTime')!, errs) : undefined;
  const boot = query.get('boot') ? atoi('boot', query.get('boot')!, errs) : undefined;
  const tail = query.get('tailLines') ? atoi('tailLines', query.get('tailLines')!, errs) : undefined;
  const pattern = query.get('pattern') ?? '';
  if (errs.length) return { errors: errs };
  const q: NodeLogQuery = {
    services, files, pattern,
    ...(since ? { sinceTime: since } : {}), ...(until ? { untilTime: until } : {}),
    ...(boot !== undefined ? { boot } : {}), ...(tail !== undefined ? { tailLines: tail } : {}),
  };
  if (services.length === 0 && files.length === 0 && !hasOptions(q)) return { errors: [] };
  return { query: q, errors: [] };
}

/**
 * securejoin.SecureJoin, approximately: the path below `root`, never outside it; `..` stops at the
 * root and a link that leads out is taken as if `root` were the file system's root.
 */
export async function secureJoin(root: string, unsafe: string): Promise<string> {
  const realRoot = await realpath(root);
  const lexical = path.join(realRoot, path.posix.normalize(`/${unsafe.replace(/\\/g, '/')}`));
  try {
    const real = await realpath(lexical);
    return real === realRoot || real.startsWith(realRoot + path.sep) ? real : path.join(realRoot, real);
  } catch {
    return lexical;
  }
}

export async function validateNodeLogQuery(q: NodeLogQuery, root: string): Promise<FieldError[]> {
  const errs: FieldError[] = [];
  for (const s of q.services) {
    if (Buffer.byteLength(s) > MAX_SERVICE_LENGTH) errs.push(fieldError.invalid('query', s, 'length must be less than 100'));
    else if (UNSAFE_SERVICE_CHARACTERS.test(s)) errs.push(fieldError.invalid('query', s, 'input contains unsupported characters'));
  }
  if (q.services.length > MAX_SERVICES) errs.push({ type: 'FieldValueTooMany', field: 'query', message: `Too many: ${q.services.length}: must have at most ${MAX_SERVICES} items` });
  if (q.files.length === 0 && q.services.length === 0) errs.push(fieldError.required('query', 'cannot be empty with options'));
  else if (q.files.length > 0 && q.services.length > 0) {
    errs.push(fieldError.invalid('query', `[${q.files.join(' ')}], [${q.services.join(' ')}]`, 'cannot specify a file and service'));
  } else if (q.files.length > 1) errs.push(invalidRaw('query', goStrings(q.files), 'cannot specify more than one file'));
  else if (q.files.length === 1 && hasOptions(q)) errs.push(invalidRaw('query', goStrings(q.files), 'cannot specify file with options'));
  else if (q.files.length === 1) {
    const full = await secureJoin(root, q.files[0]!);
    try {
      await stat(full);
    } catch (e) {
      errs.push(invalidRaw('query', goStrings(q.files), `stat ${full}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`));
    }
  }
  if (q.sinceTime && q.untilTime && q.sinceTime > q.untilTime) errs.push(fieldError.invalid('untilTime', q.untilTime.toISOString(), 'must be after `sinceTime`'));
  if (q.boot !== undefined && q.boot > 0) errs.push(fieldError.invalid('boot', q.boot, 'must be less than 1'));
  if (q.tailLines !== undefined && (q.tailLines < 0 || q.tailLines > MAX_TAIL_LINES)) {
    errs.push(fieldError.invalid('tailLines', q.tailLines, `must be between 0 and ${MAX_TAIL_LINES}, inclusive`));
  }
  if (q.pattern) {
    try {
      new RegExp(q.pattern, 'u');
    } catch (e) {
      errs.push(fieldError.invalid('pattern', q.pattern, `error parsing regexp: ${(e as Error).message}`));
    }
  }
  return errs;
}

export const queryErrorText = (errs: readonly FieldError[]): string => aggregateFieldErrors(errs);

/** Go's "2006-1-2 15:4:5" layout, in UTC (journalctl runs with --utc). */
function journalDate(d: Date): string {
  return `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()} ${d.getUTCHours()}:${d.getUTCMinutes()}:${d.getUTCSeconds()}`;
}

export function journalctlArgs(q: NodeLogQuery, services: readonly string[]): string[] {
  const args = ['--utc', '--no-pager', '--output=short-precise'];
  if (q.sinceTime) args.push(`--since=${journalDate(q.sinceTime)}`);
  if (q.untilTime) args.push(`--until=${journalDate(q.untilTime)}`);
  if (q.tailLines !== undefined) args.push('--pager-end', `--lines=${q.tailLines}`);
  for (const s of services) if (s) args.push(`--unit=${s}`);
  if (q.pattern) args.push(`--grep=${q.pattern}`);
  if (q.boot !== undefined) args.push('--boot', String(q.boot));
  return args;
}

function run(cmd: string, args: readonly string[], signal: AbortSignal, out?: Writable): Promise<{ ok: boolean; started: boolean; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { signal, stdio: ['ignore', 'pipe', 'pipe'] });
    const sink = (c: Buffer) => { if (out) out.write(c); else if (output.length < 8 << 20) output += c.toString('utf8'); };
    child.stdout.on('data', sink);
    child.stderr.on('data', sink);
    child.on('error', () => resolve({ ok: false, started: child.pid !== undefined, output }));
    child.on('close', (code) => resolve({ ok: code === 0, started: true, output }));
  });
}

async function copyServiceFile(out: PassThrough, root: string, service: string, signal: AbortSignal): Promise<void> {
  let lastError: NodeJS.ErrnoException | undefined;
  for (const name of [service, `${service}.log`, `${service}/${service}.log`]) {
    const file = await secureJoin(root, name);
    try {
      const info = await stat(file);
      // A directory /var/log/<service>/ is the third heuristic's, not a log.
      if (info.isDirectory()) { lastError = Object.assign(new Error('is a directory'), { code: 'ENOENT' }); continue; }
      await pipeline(createReadStream(file), out, { end: false, signal });
      return;
    } catch (e) {
      lastError = e as NodeJS.ErrnoException;
      if (lastError.code !== 'ENOENT') break;
    }
  }
  if (lastError?.code === 'ENOENT') out.write(`\nlog not found for ${service}\n`);
  else if (lastError) out.write(`\nerror getting log for ${service}: ${lastError.message}\n`);
}

/** Streams the services' logs: journald units through journalctl, the others from their log files. */
export function serveServiceLogs(ctx: Koa.Context, q: NodeLogQuery, root: string, journalctl: string): void {
  ctx.status = 200;
  ctx.set('Content-Type', 'text/plain;charset=UTF-8');
  const out = new PassThrough();
  if (ctx.get('Accept-Encoding') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    const gz = createGzip({ level: zlibConstants.Z_BEST_SPEED });
    out.pipe(gz);
    ctx.body = gz;
  } else {
    ctx.body = out;
  }
  const signal = AbortSignal.timeout(QUERY_DEADLINE_MS);
  void (async () => {
    try {
      const native: string[] = [];
      const files: string[] = [];
      for (const s of q.services) {
        // journalctl does not fail for an unknown unit, so the unit list decides who logs to journald.
        const units = await run(journalctl, ['--field', '_SYSTEMD_UNIT'], signal);
        (units.ok && units.output.includes(`${s}.service`) ? native : files).push(s);
      }
      if (native.length) {
        const r = await run(journalctl, journalctlArgs(q, native), signal, out);
        if (!r.started && (q.boot ?? 0) === 0) out.write('\nerror: journal output not available\n');
      }
      if (files.length && hasOptions(q)) {
        out.write(`\noptions present and query resolved to log files for [${files.join(' ')}]\ntry without specifying options\n`);
      } else {
        for (const s of files) await copyServiceFile(out, root, s, signal);
      }
    } catch (e) {
      if (signal.aborted) out.write(`\ncontext error: context deadline exceeded\n`);
      else out.write(`\nerror: ${(e as Error).message}\n`);
    } finally {
      out.end();
    }
  })();
}
