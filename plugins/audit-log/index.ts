// AuditLogPlugin: upstream's audit log backend. With --audit-log-path (and an --audit-policy-file,
// without which nothing is audited) it taps `hooks.audit` and writes each event as a line to the
// file (created 0600, rotated as lumberjack rotates it) or to standard output (`-`), in the mode
// --audit-log-mode names; shutdown writes what a batch still holds.
import fs from 'node:fs';
import path from 'node:path';
import { tapAuditBackend } from '../../core/audit/backend.js';
import { auditErrorCounter } from '../../core/metrics/apiserver.js';
import type { Host } from '../../core/host.js';
import { locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { osErrorText } from '../../core/go-os-error.js';
import { auditLogFlags } from './flags.js';
import { LogBackend, type LineWriter } from './log-backend.js';
import { auditLogSettings, validateAuditLog } from './options.js';
import { RotatingFile } from './rotating-file.js';
import { makeDirSync } from '../../core/make-dir.js';

const PLUGIN_NAME = 'AuditLogPlugin';

/** ensureLogFile: the directory (0700) and the file (0600) exist before the first event. */
function ensureLogFile(file: string): void {
  try {
    makeDirSync(path.dirname(file), 0o700);
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_APPEND | fs.constants.O_RDWR, 0o600));
  } catch (e) {
    const op = (e as NodeJS.ErrnoException).syscall === 'mkdir' ? 'mkdir' : 'open';
    // os.OpenFile(O_RDWR) of a directory fails in the open itself (`open /x/: is a directory`).
    throw new StartupError(`--audit-log-path: ensureLogFile: ${osErrorText(op, (e as NodeJS.ErrnoException).path ?? file, e, true)}`);
  }
}

const stdout: LineWriter = { write: (text) => { process.stdout.write(text); } };

export const AuditLogPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      for (const f of auditLogFlags) flags.define({ ...f, owner: PLUGIN_NAME });
    });
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.serving }, ({ flags }) => {
      if (flags.get<string>('audit-log-path') === '') return;
      const problem = locatedError(validateAuditLog(flags));
      if (problem) throw problem;
    });
    host.hooks.configure.tap(PLUGIN_NAME, ({ flags }) => {
      const s = auditLogSettings(flags);
      if (s.path === '') return;
      if (s.path !== '-') ensureLogFile(s.path);
      const log = host.logger.child('audit');
      const policy = flags.get<string>('audit-policy-file');
      if (!policy) {
        log.v(2).info('No audit policy file provided, no events will be recorded for log backend');
        return;
      }
      const out: LineWriter = s.path === '-' ? stdout : new RotatingFile(s.path, s.rotation);
      tapAuditBackend(host, PLUGIN_NAME, new LogBackend(out, s.format, s.backend.apiVersion, log, auditErrorCounter(host)), s.backend, log);
    });
  },
};
