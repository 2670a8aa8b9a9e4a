// `plat snapshot save|status|restore`: backup and restore of the embedded store, as etcdctl snapshot
// save and etcdutl snapshot status|restore do it for etcd. save asks the running API server for a
// consistent copy (GET /snapshot); status reads a snapshot file offline; restore makes a new data
// directory's store of one, optionally moving its revision past every resourceVersion clients saw.
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { readSnapshotStatus, refuseLiveStore } from '../../core/storage/lmdb-snapshot.js';
import { restoreSnapshot } from '../../core/storage/snapshot-restore.js';
import { CommandError } from './command-error.js';
import { defineKubeconfigFlags, kubeconfigConnection } from './kubeconfig-flags.js';
import { formatStatus, humanBytes, WRITE_OUT, type WriteOut } from './snapshot-output.js';
import { saveSnapshot } from './snapshot-save.js';
import { parseSubcommand, type SubcommandHelp } from './subcommand-help.js';

export const SNAPSHOT_USAGE = `Usage:
  plat snapshot save FILE [--kubeconfig FILE]
  plat snapshot status FILE [-w simple|table|json]
  plat snapshot restore FILE --data-dir DIR [--bump-revision N --mark-compacted] [--skip-hash-check]
`;

function saveFlags(): Flags {
  const f = new Flags();
  defineKubeconfigFlags(f, 'plat snapshot save');
  return f;
}

function statusFlags(): Flags {
  const f = new Flags();
  f.define({ name: 'write-out', shorthand: 'w', type: 'string', default: 'simple', enum: WRITE_OUT, section: 'plat snapshot status', help: 'Output format: simple, table or json.' });
  return f;
}

function restoreFlags(): Flags {
  const f = new Flags();
  const S = 'plat snapshot restore';
  f.define({ name: 'data-dir', type: 'string', default: '', section: S, help: 'The data directory to restore into (its store/ is made from the snapshot; it must not hold a store).' });
  f.define({ name: 'bump-revision', type: 'uint64', default: 0, section: S, help: 'How much to increase the latest revision after restore',
    validate: (v) => ((v as number) < 0 ? 'must not be negative' : undefined) });
  f.define({ name: 'mark-compacted', type: 'bool', default: false, section: S,
    help: 'Mark the latest revision after restore as the point of scheduled compaction (required if --bump-revision > 0, disallowed otherwise)' });
  f.define({ name: 'skip-hash-check', type: 'bool', default: false, section: S,
    help: 'Ignore snapshot integrity hash value (required if copied from data directory)' });
  return f;
}

export const SNAPSHOT_HELP: Readonly<Record<string, SubcommandHelp>> = {
  save: {
    use: 'plat snapshot save FILE [options]',
    long: `Take a consistent snapshot of the store of a running API server and write it to FILE.

The server copies its own store (compacted: free pages left out) and streams it; the kubeconfig's
user must be allowed to get the non-resource URL /snapshot (cluster-admin, system:masters). FILE
is written as FILE.part, synced and checked to open as a plat store, then renamed.`,
    examples: `  # A backup of the server plat all runs here
  plat snapshot save backup.db --kubeconfig .plat/admin.conf`,
    flags: saveFlags,
  },
  status: {
    use: 'plat snapshot status FILE [options]',
    long: `Print a snapshot file's hash, revision, total keys and total size.

As etcdutl snapshot status: simple prints them comma-separated; the hash is a CRC-32C of every
record. A file inside a data directory a running process holds is refused.`,
    examples: '  plat snapshot status backup.db -w table',
    flags: statusFlags,
  },
  restore: {
    use: 'plat snapshot restore FILE --data-dir DIR [options]',
    long: `Make DIR's store (DIR/store/data.mdb) of a snapshot file.

With --bump-revision N --mark-compacted (recommended, as for etcd) the revision moves N past the
snapshot's and older history is compacted: clients and controllers that saw later resourceVersions
get 410 Gone and list again instead of missing writes. N must exceed the writes made after the
snapshot was taken. Restart every component afterwards.`,
    examples: `  plat snapshot restore backup.db --data-dir /var/lib/plat-restored --bump-revision 1000000000 --mark-compacted`,
    flags: restoreFlags,
  },
};

/** The subcommand's flags, parsed, and its one positional FILE. */
function parsed(sub: string, flags: Flags, argv: readonly string[]): string {
  const { positional } = parseSubcommand(`plat snapshot ${sub}`, flags, argv);
  if (positional.length !== 1) throw new FlagError(`snapshot ${sub} requires exactly one argument`);
  return positional[0]!;
}

async function save(argv: readonly string[]): Promise<string> {
  const f = saveFlags();
  const file = parsed('save', f, argv);
  const s = await saveSnapshot(kubeconfigConnection(f), file);
  return `Snapshot saved at ${file} (revision ${s.revision}, ${s.totalKey} total keys, ${humanBytes(s.totalSize)})\n`;
}

async function status(argv: readonly string[]): Promise<string> {
  const f = statusFlags();
  const file = parsed('status', f, argv);
  try {
    return formatStatus(await readSnapshotStatus(file), f.get<WriteOut>('write-out'));
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
}

async function restore(argv: readonly string[]): Promise<string> {
  const f = restoreFlags();
  const file = parsed('restore', f, argv);
  const dataDir = f.get<string>('data-dir');
  if (!dataDir) throw new FlagError('required flag(s) "data-dir" not set');
  const bump = f.get<number>('bump-revision');
  const markCompacted = f.get<boolean>('mark-compacted');
  // etcdutl's check and words (its flag is --bump-revision, the text says --revision-bump).
  if ((bump === 0 && markCompacted) || (bump > 0 && !markCompacted)) throw new FlagError('--mark-compacted required if --revision-bump > 0');
  try {
    refuseLiveStore(file);
    const r = await restoreSnapshot(file, dataDir, { bumpRevision: bump, markCompacted, skipHashCheck: f.get<boolean>('skip-hash-check') });
    return `Snapshot ${file} (revision ${r.snapshot.revision}) restored to ${r.store}: revision ${r.revision}, compacted ${r.compacted}\n`;
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
}

export const SNAPSHOT_COMMANDS: Readonly<Record<string, (argv: readonly string[]) => Promise<string>>> = { save, status, restore };
