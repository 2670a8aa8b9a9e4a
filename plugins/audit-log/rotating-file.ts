// lumberjack.Logger, the audit log file upstream writes through: appends to the file; a write
// that would take it past maxSize megabytes (100 when 0) first renames it to
// `<name>-<UTC time 2006-01-02T15-04-05.000><ext>` and starts a new one with the old one's mode
// (0600 for the first); then backups past maxBackups (newest kept) or older than maxAge days are
// removed, and with compress the others are gzipped to `<backup>.gz`. Writes and rotation are
// synchronous, as the write is part of the request in blocking mode; the gzip is not (lumberjack
// compresses in its mill goroutine too): a 100 MB backup would stall every request for seconds.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { makeDirSync } from '../../core/make-dir.js';
import { osErrorText } from '../../core/go-os-error.js';

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RotationSettings {
  readonly maxSize: number;
  readonly maxBackups: number;
  readonly maxAge: number;
  readonly compress: boolean;
}

/** The backup name's time, lumberjack's backupTimeFormat in UTC. */
function backupTime(d: Date): string {
  return d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

export class RotatingFile {
  #milling: Promise<void> = Promise.resolve();
  readonly #compressing = new Set<string>();
  private fd: number | undefined;
  private size = 0;
  private readonly max: number;

  constructor(readonly filename: string, private readonly s: RotationSettings, private readonly now: () => Date = () => new Date()) {
    this.max = (s.maxSize > 0 ? s.maxSize : DEFAULT_MAX_SIZE_MB) * MEGABYTE;
  }

  write(text: string): void {
    const data = Buffer.from(text);
    if (data.length > this.max) throw new Error(`write length ${data.length} exceeds maximum file size ${this.max}`);
    if (this.fd === undefined) this.openExistingOrNew(data.length);
    else if (this.size + data.length > this.max) this.rotate();
    try {
      fs.writeSync(this.fd!, data);
    } catch (e) {
      // os.File.Write's *PathError, as lumberjack passes it on: `write /var/log/audit.log: no space left on device`.
      if (typeof (e as NodeJS.ErrnoException).code !== 'string') throw e;
      throw new Error(osErrorText('write', this.filename, e, true));
    }
    this.size += data.length;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private openExistingOrNew(writeLen: number): void {
    this.mill();
    let st: fs.Stats;
    try { st = fs.statSync(this.filename); } catch { return this.openNew(); }
    if (st.size + writeLen >= this.max) return this.rotate();
    this.fd = fs.openSync(this.filename, fs.constants.O_APPEND | fs.constants.O_WRONLY);
    this.size = st.size;
  }

  private openNew(): void {
    makeDirSync(path.dirname(this.filename), 0o755);
    let mode = 0o600;
    try {
      const st = fs.statSync(this.filename);
      mode = st.mode & 0o777;
      fs.renameSync(this.filename, this.backupName());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    this.fd = fs.openSync(this.filename, fs.constants.O_CREAT | fs.constants.O_WRONLY | fs.constants.O_TRUNC, mode);
    this.size = 0;
  }

  private rotate(): void {
    this.close();
    this.openNew();
    this.mill();
  }

  private backupName(): string {
    const ext = path.extname(this.filename);
    const prefix = path.basename(this.filename, ext);
    return path.join(path.dirname(this.filename), `${prefix}-${backupTime(this.now())}${ext}`);
  }

  /** The backups of this file, newest first, by the time in their names. */
  private backups(): { name: string; time: number }[] {
    const dir = path.dirname(this.filename);
    const ext = path.extname(this.filename);
    const prefix = `${path.basename(this.filename, ext)}-`;
    const out: { name: string; time: number }[] = [];
    for (const f of fs.readdirSync(dir)) {
      if (!f.startsWith(prefix)) continue;
      for (const suffix of [ext, `${ext}.gz`]) {
        if (!f.endsWith(suffix)) continue;
        const stamp = f.slice(prefix.length, f.length - suffix.length);
        const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}\.\d{3})$/.exec(stamp);
        if (m) { out.push({ name: f, time: Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) }); break; }
      }
    }
    return out.sort((a, b) => b.time - a.time);
  }

  /** millRunOnce, synchronously. */
  private mill(): void {
    const { maxBackups, maxAge, compress } = this.s;
    if (maxBackups === 0 && maxAge === 0 && !compress) return;
    const dir = path.dirname(this.filename);
    let files = this.backups();
    const remove: string[] = [];
    if (maxBackups > 0 && maxBackups < files.length) {
      // A backup and its .gz count once.
      const kept = new Set<string>();
      const left: typeof files = [];
      for (const f of files) {
        const base = f.name.replace(/\.gz$/, '');
        if (!kept.has(base)) kept.add(base);
        if (kept.size > maxBackups) remove.push(f.name);
        else left.push(f);
      }
      files = left;
    }
    if (maxAge > 0) {
      const cutoff = this.now().getTime() - maxAge * DAY_MS;
      const left: typeof files = [];
      for (const f of files) {
        if (f.time < cutoff) remove.push(f.name);
        else left.push(f);
      }
      files = left;
    }
    for (const f of remove) fs.rmSync(path.join(dir, f), { force: true });
    if (compress) {
      const todo = files.filter((f) => !f.name.endsWith('.gz') && !this.#compressing.has(f.name));
      for (const f of todo) this.#compressing.add(f.name);
      // One at a time, in the background; a failure leaves the backup uncompressed, as lumberjack's
      // mill ignores its errors.
      this.#milling = this.#milling.then(async () => {
        for (const f of todo) {
          const from = path.join(dir, f.name);
          try {
            const mode = fs.statSync(from).mode & 0o777;
            // Written aside and renamed, so that a `.gz` is never seen half-written.
            await pipeline(fs.createReadStream(from), createGzip(), fs.createWriteStream(`${from}.gz.tmp`, { mode }));
            fs.renameSync(`${from}.gz.tmp`, `${from}.gz`);
            fs.rmSync(from);
          } catch {
            fs.rmSync(`${from}.gz.tmp`, { force: true });
          } finally {
            this.#compressing.delete(f.name);
          }
        }
      });
    }
  }

  /** Resolves once the backups being compressed are done (for a clean stop). */
  idle(): Promise<void> {
    return this.#milling;
  }
}
