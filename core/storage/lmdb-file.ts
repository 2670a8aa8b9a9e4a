// The checks an LMDB data file gets before LMDB maps it. LMDB trusts the file: it takes the page
// size and the last page number from a meta page and maps that much, so a truncated file ends the
// process with SIGBUS or SIGSEGV at the first read past its end, and an empty one is taken for a
// new store (every object gone, resourceVersions starting again at 1). Each is refused here,
// naming the file.
//
// On-disk layout (the LMDB 0.9 lmdb-js bundles, 64-bit): pages 0 and 1 are meta pages; a page
// starts with a 24-byte header (pgno u64, txnid u64, pad u16, flags u16, lower/upper u32) and a meta
// page continues with MDB_meta: magic u32, version u32, address u64, mapsize u64, two MDB_db of
// 48 bytes (free space, main; the first's md_pad is the page size), last_pg u64, txnid u64. The
// meta page with the higher txnid is the current one. A file cut short past its root pages is
// refused; one cut short less may still fail at its first read of a missing page (a full check
// would walk every tree).
import fs from 'node:fs';
import path from 'node:path';
import { osErrorText } from '../go-os-error.js';
import type { Logger } from '../log.js';

const P_META = 0x08;
const MDB_MAGIC = 0xbeefc0de;
const MDB_DATA_VERSION = 2;
const OFF_FLAGS = 18;
const OFF_MAGIC = 24;
const OFF_VERSION = 28;
const OFF_PAGE_SIZE = 48;
/** md_root of the free-space and main MDB_db (each: pad u32, flags u16, depth u16, four u64 counts, root u64). */
const OFF_FREE_ROOT = 88;
const OFF_MAIN_ROOT = 136;
/** An empty database's root. */
const P_INVALID = 0xffffffffffffffffn;
const OFF_TXNID = 152;
const META_END = 160;
const MIN_PAGE = 512;
const MAX_PAGE = 65536;

/**
 * Written beside the data file once it has been opened: an empty or missing data file next to it
 * is a store that lost its data, not a new one.
 */
export const INITIALISED_MARKER = 'initialised';

interface Meta { readonly freeRoot: bigint; readonly mainRoot: bigint; readonly txnid: bigint }

function readMeta(page: Buffer, n: number): Meta | string {
  const magic = page.readUInt32LE(OFF_MAGIC);
  if (!(page.readUInt16LE(OFF_FLAGS) & P_META) || magic !== MDB_MAGIC) {
    return `not an LMDB data file: meta page ${n} has magic 0x${magic.toString(16).padStart(8, '0')}, not 0x${MDB_MAGIC.toString(16)}`;
  }
  const version = page.readUInt32LE(OFF_VERSION) & 0xffff;
  if (version !== MDB_DATA_VERSION) return `meta page ${n} is of LMDB data format ${version}, not ${MDB_DATA_VERSION}`;
  return { freeRoot: page.readBigUInt64LE(OFF_FREE_ROOT), mainRoot: page.readBigUInt64LE(OFF_MAIN_ROOT), txnid: page.readBigUInt64LE(OFF_TXNID) };
}

function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  return buf.subarray(0, fs.readSync(fd, buf, 0, length, position));
}

/** What is wrong with the data file, or undefined when LMDB may open it (or create it). */
function damage(dataFile: string, initialised: boolean, flags = 'r+'): string | undefined {
  const fd = openFile(dataFile, flags);
  if (fd === undefined) return initialised ? 'no such file, but this store held data before' : undefined;
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return initialised ? 'file is empty, but this store held data before' : undefined;
    if (size < META_END) return `file is truncated: ${size} bytes, shorter than its meta pages`;
    const first = readAt(fd, META_END, 0);
    const meta0 = readMeta(first, 0);
    if (typeof meta0 === 'string') return meta0;
    const pageSize = first.readUInt32LE(OFF_PAGE_SIZE);
    if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0) return `meta page 0 gives an impossible page size ${pageSize}`;
    if (size < 2 * pageSize) return `file is truncated: ${size} bytes, shorter than its two meta pages (${2 * pageSize} bytes)`;
    const meta1 = readMeta(readAt(fd, META_END, pageSize), 1);
    if (typeof meta1 === 'string') return meta1;
    const meta = meta1.txnid > meta0.txnid ? meta1 : meta0;
    // Not mm_last_pg: mdb.c says "the file may be shorter if the freeDB lists the final pages"
    // (pages a transaction took and freed again are never written), and a healthy store must always
    // open. The root pages of the current meta are certainly read, so they must be in the file.
    for (const [what, root] of [['free-space', meta.freeRoot], ['main', meta.mainRoot]] as const) {
      if (root === P_INVALID) continue;
      const end = (root + 1n) * BigInt(pageSize);
      if (BigInt(size) < end) return `file is truncated: ${size} bytes, but the root page (${root}) of its ${what} database ends at byte ${end}`;
    }
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Opened read-write as LMDB opens it, or undefined when missing: LMDB reports a file it may not open
 * without naming it, and dies of SIGSEGV on a lock file it may not open beside a data file it may.
 */
function openFile(file: string, flags = 'r+'): number | undefined {
  try {
    return fs.openSync(file, flags);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(osErrorText('open', file, e), { cause: e });
  }
}

/**
 * Throws `<data file>: <problem>` for a data file LMDB would crash on or silently start afresh from,
 * and `open <file>: <errno text>` for a data or lock file this process may not open.
 */
export function checkLmdbFile(dataFile: string): void {
  const dir = path.dirname(dataFile);
  const lock = openFile(`${dataFile}-lock`);
  if (lock !== undefined) fs.closeSync(lock);
  const problem = damage(dataFile, fs.existsSync(path.join(dir, INITIALISED_MARKER)));
  if (problem !== undefined) throw new Error(`${dataFile}: ${problem} (restore ${dir} from a backup, or remove it to start with an empty store)`);
}

/**
 * What is wrong with a snapshot file (a copy, read only): what checkLmdbFile refuses, a missing or
 * empty file included. Undefined when LMDB may map it.
 */
export function snapshotFileProblem(file: string): string | undefined {
  return damage(file, true, 'r');
}

/** Records that the data file beside it holds a store (see INITIALISED_MARKER); a store that cannot record it (a full disk) still opens. */
export function markInitialised(dataFile: string, logger: Logger): void {
  const marker = path.join(path.dirname(dataFile), INITIALISED_MARKER);
  if (fs.existsSync(marker)) return;
  try {
    fs.writeFileSync(marker, 'an empty or missing data.mdb beside this file is a store that lost its data\n', { mode: 0o600 });
  } catch (e) {
    logger.warn('cannot record that the store is initialised', { file: marker, error: (e as Error).message });
  }
}

/** The named databases a plat store keeps in LMDB's main database; it holds nothing else. */
export const STORE_DATABASES: readonly string[] = ['events', 'meta', 'objects'];

/**
 * Refuses a data file that another program's LMDB environment fills: its main database holds keys
 * a plat store never writes. Checked before plat creates its databases or narrows the file's mode,
 * so another program's file is left as it was found.
 */
export function checkStoreKeys(dataFile: string, rootKeys: Iterable<unknown>): void {
  const foreign: string[] = [];
  for (const key of rootKeys) {
    if (typeof key === 'string' && STORE_DATABASES.includes(key)) continue;
    foreign.push(typeof key === 'string' ? JSON.stringify(key) : String(key));
    if (foreign.length === 3) break;
  }
  if (foreign.length === 0) return;
  throw new Error(`${dataFile}: not a plat store: its main database holds ${foreign.join(', ')}${foreign.length === 3 ? ', ...' : ''}, which plat never writes (point --data-dir at a directory of its own)`);
}
