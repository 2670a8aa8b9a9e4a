// A small leveled logger in the klog text style (`I1122 02:52:49.123456 file] msg key=value`),
// verbosity from -v and --vmodule. Secrets never reach it: callers log names and fingerprints, not values.
import { vmoduleLevel, type VModuleRule } from './log-vmodule.js';

export type Fields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** Logged only when the verbosity is at least `level`; `enabled` says whether it is (klog's V(n).Enabled()). */
  v(level: number): Pick<Logger, 'info'> & { readonly enabled?: boolean };
  child(name: string): Logger;
  /**
   * Changes the verbosity of the whole tree this logger belongs to: -v is process-wide, as klog's
   * is (what /debug/flags/v sets). Every logger createLogger makes has it; silentLogger does not.
   */
  setVerbosity?(v: number): void;
  /** Switches the whole tree between klog's text and JSON formats (process-wide, as --logging-format). */
  setFormat?(format: 'text' | 'json'): void;
  /** --vmodule for the whole tree: loggers whose name a rule matches log up to its level (log-vmodule.ts). */
  setVModule?(rules: readonly VModuleRule[]): void;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function stamp(level: string, d: Date): string {
  return `${level}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000`;
}
function render(fields?: Fields): string {
  if (!fields) return '';
  return Object.entries(fields).map(([k, v]) => ` ${k}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v)}`).join('');
}

export interface LoggerOptions { verbosity?: number; write?: (line: string) => void; name?: string }

/** klog's JSON format (`--logging-format=json`): one object a line, `ts` in seconds, errors without `v`. */
function renderJson(level: string, name: string, msg: string, v: number, fields?: Fields): string {
  const entry: Record<string, unknown> = { ts: Date.now() / 1000, logger: name, msg };
  if (level !== 'E') entry['v'] = v;
  return JSON.stringify({ ...entry, ...fields });
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const state = { verbosity: opts.verbosity ?? 0, json: false, vmodule: [] as readonly VModuleRule[], moduleLevels: new Map<string, number>() };
  // Each logger name is matched once per --vmodule setting; -1 when no rule matches.
  const moduleLevel = (name: string): number => {
    let level = state.moduleLevels.get(name);
    if (level === undefined) state.moduleLevels.set(name, level = vmoduleLevel(state.vmodule, name) ?? -1);
    return level;
  };
  const write = opts.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const make = (name: string): Logger => {
    const emit = (level: string, v = 0) => (msg: string, fields?: Fields) =>
      write(state.json ? renderJson(level, name, msg, v, fields) : `${stamp(level, new Date())} ${name}] ${msg}${render(fields)}`);
    const info = emit('I');
    return {
      info, warn: emit('W'), error: emit('E'),
      v: (level) => {
        const enabled = level <= state.verbosity || (state.vmodule.length > 0 && level <= moduleLevel(name));
        return { enabled, info: enabled ? emit('I', level) : () => {} };
      },
      child: (child) => make(name ? `${name}/${child}` : child),
      setVerbosity: (v: number) => { state.verbosity = v; },
      setFormat: (format: 'text' | 'json') => { state.json = format === 'json'; },
      setVModule: (rules: readonly VModuleRule[]) => { state.vmodule = rules; state.moduleLevels.clear(); },
    };
  };
  return make(opts.name ?? 'plat');
}

export const silentLogger: Logger = {
  info() {}, warn() {}, error() {}, v: () => ({ info() {} }), child: () => silentLogger,
};
