// Where the event loop of `plat bench issue --stages --cpu-prof DIR`'s second plat all goes, by
// part of a write: `node dist/bench/issue/profile-shares.js DIR/stages`. Reads the main thread's
// .cpuprofile (V8's format: nodes with a callFrame and children, samples with time deltas),
// splits it into the timed creates, approvals and status writes (after their warm-ups) by the
// validation each kind runs, and gives each sample to the part of the first frame, leaf to root,
// that belongs to one. Shares of the profiled time are what to compare: the profiler itself slows
// the process down.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface CallFrame { functionName: string; url: string }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Parts of a write, tried in this order on each frame; a frame of a neutral one is passed over. */
const PARTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['', /^(\(anonymous\)|emit|processTicksAndRejections|runMicrotasks|\(root\)) |node:events|node:buffer|node:internal\/(util|process|async_hooks|timers|validators|errors)/],
  ['garbage collection', /^\(garbage collector\) /],
  ['idle', /^\(idle\) /],
  ['V8 and native, unattributed', /^\(program\) /],
  ['module loading', /node:internal\/modules|^compileSourceTextModule |^wrapSafe /],
  ['crypto core: PKCS#10 parse and proof of possession (create), certificate check (status)', /core\/crypto\/|wasm:\/\/|^GenericJSToWasm/],
  ['validation: the rest (fields, conditions, certificate)', /plugins\/certificates\/(validation|strategy|signer-name|usages)|core\/api\/field-errors|core\/registry\/(strategy|object-meta)/],
  ['admission', /core\/admission|plugins\/admission-/],
  ['authorization', /core\/authz|plugins\/authz-|plugins\/rbac|selector-attributes/],
  ['authentication (client certificate)', /core\/authn|plugins\/authn-|^authenticate .*core\/server\/app|impersonation|core\/server\/peer/],
  ['watch fan-out (serialise once, write to each watch)', /core\/server\/watch-|core\/storage\/log-watch|core\/registry\/watch/],
  ['LMDB write, commit and read', /node_modules\/lmdb|core\/storage\//],
  ['controllers inside plat all (informers, queues)', /core\/client|core\/controller|core\/certificates|plugins\/csr|plugins\/controller-manager/],
  ['store: stored form, key order, no-op check', /core\/registry\/|comparisons/],
  ['body: read, parse, type check, times', /core\/server\/(body|patch-decode|yaml-strict)|^(decodeObject|readObject) |core\/api\/(go-decode|go-json-syntax|schema-fields|schema-types|go-null|go-types|go-time|go-object-meta|object-meta-schema|base64)|node_modules\/ajv|^validate\d+ /],
  ['response: serialise and send', /core\/server\/(respond|output-media-type|pretty-print|table)|core\/api\/(go-json-marshal|go-order|go-empty|meta)|^stringify /],
  ['koa, routing and filters', /node_modules\/(koa|delegates|on-finished|statuses|parseurl|content-type|accepts|type-is|mime)|core\/server\/|core\/(around-tap|running-tap|hooks)|node_modules\/tapable/],
  ['TLS and HTTP', /node:_http|node:http|node:_tls|node:tls|node:net|node:internal\/(streams|stream_base|http|url)|node:stream|^(writev|writeUtf8String|writeLatin1String|writeBuffer|onStreamRead|URL) /],
];

const KINDS = { create: /^validateCsrCreate$/, approve: /^validateCsrApprovalUpdate$/, status: /^validateCsrStatusUpdate$/ } as const;
export type WriteKind = keyof typeof KINDS;

/** Profiled milliseconds by part, for each kind of write (its timed phase, the warm-up left out). */
export function sharesByKind(p: CpuProfile): Record<WriteKind, Map<string, number>> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frame = (id: number) => { const f = byId.get(id)!.callFrame; return `${f.functionName || '(anonymous)'} ${f.url}`; };
  const partOf = new Map<number, string>();
  const kindOf = new Map<number, WriteKind | undefined>();
  const part = (leaf: number): string => {
    let known = partOf.get(leaf);
    if (known === undefined) {
      known = 'other';
      for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
        const hit = PARTS.find(([, re]) => re.test(frame(id!)));
        if (hit && hit[0]) { known = hit[0]; break; }
      }
      partOf.set(leaf, known);
    }
    return known;
  };
  const kind = (leaf: number): WriteKind | undefined => {
    if (kindOf.has(leaf)) return kindOf.get(leaf);
    let k: WriteKind | undefined;
    for (let id: number | undefined = leaf; id !== undefined && !k; id = parent.get(id)) {
      const name = byId.get(id)!.callFrame.functionName;
      k = (Object.keys(KINDS) as WriteKind[]).find((w) => KINDS[w].test(name));
    }
    kindOf.set(leaf, k);
    return k;
  };
  const out: Record<WriteKind, Map<string, number>> = { create: new Map(), approve: new Map(), status: new Map() };
  // The run is warm-up creates, approvals, status writes, then the timed ones: a sample belongs to
  // the kind last seen, and only from the second round of creates on.
  let current: WriteKind | undefined;
  let round = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const leaf = p.samples[i]!;
    const k = kind(leaf);
    if (k && k !== current) { if (k === 'create' && current === 'status') round++; current = k; }
    if (!current || round < 1) continue;
    const m = out[current];
    const name = part(leaf);
    m.set(name, (m.get(name) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  return out;
}

/** The main thread's profile in `dir` (thread 0 in node's file names), or `dir` itself when it is a file. */
function mainThreadProfile(dir: string): string {
  if (statSync(dir).isFile()) return dir;
  const found = readdirSync(dir).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f)).sort();
  if (found.length === 0) throw new Error(`no main-thread .cpuprofile in ${dir}`);
  return path.join(dir, found[found.length - 1]!);
}

function report(file: string): string {
  const shares = sharesByKind(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const kinds = Object.keys(shares) as WriteKind[];
  const busy = (k: WriteKind) => [...shares[k]].filter(([n]) => n !== 'idle').reduce((s, [, v]) => s + v, 0);
  const parts = [...new Set(kinds.flatMap((k) => [...shares[k].keys()]))].filter((n) => n !== 'idle')
    .sort((a, b) => kinds.reduce((s, k) => s + (shares[k].get(b) ?? 0) / busy(k), 0) - kinds.reduce((s, k) => s + (shares[k].get(a) ?? 0) / busy(k), 0));
  const pct = (k: WriteKind, n: string) => `${(100 * (shares[k].get(n) ?? 0) / busy(k)).toFixed(1)}%`;
  const lines = [`${file}`, '', '| part of a write | create | approve | status |', '|---|---:|---:|---:|'];
  for (const n of parts) lines.push(`| ${n} | ${kinds.map((k) => pct(k, n)).join(' | ')} |`);
  lines.push(`| busy (profiled ms, idle left out) | ${kinds.map((k) => busy(k).toFixed(0)).join(' | ')} |`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node dist/bench/issue/profile-shares.js DIR/stages (from plat bench issue --stages --cpu-prof DIR)\n');
    process.exit(2);
  }
  process.stdout.write(`${report(mainThreadProfile(dir))}\n`);
}
