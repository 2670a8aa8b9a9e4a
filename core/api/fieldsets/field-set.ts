// A set of field paths, as structured-merge-diff's fieldpath.Set: a trie whose nodes are path
// elements. A node is a *member* when the path to it is in the set (a leaf, or a map entry or list
// item owned as a whole), and has *children* when paths below it are. Elements are kept as the
// strings FieldsV1 writes them (`f:name`, `k:{"type":"Approved"}`, `v:"x"`, `i:3`), which are
// their identity: a key's fields are sorted by name and its values are JSON, as upstream's.

export type PathElement = string;

export const fieldElement = (name: string): PathElement => `f:${name}`;
export const valueElement = (v: unknown): PathElement => `v:${JSON.stringify(v)}`;
export const indexElement = (i: number): PathElement => `i:${i}`;

/** keyedAssociativeListItemToPathElement: the key fields sorted by name (FieldList.Sort). */
export function keyElement(fields: ReadonlyArray<readonly [string, unknown]>): PathElement {
  const sorted = fields.length > 1 ? [...fields].sort((a, b) => compareBytes(a[0], b[0])) : fields;
  return `k:{${sorted.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

export function isPathElement(s: string): boolean {
  const kind = s.slice(0, 2);
  if (kind === 'f:') return true;
  if (kind === 'i:') return /^i:(0|[1-9][0-9]*)$/.test(s);
  if (kind !== 'k:' && kind !== 'v:') return false;
  try {
    const v: unknown = JSON.parse(s.slice(2));
    return kind === 'v:' || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0);
  } catch { return false; }
}

/** PathElement.String: `.name`, `[k=v,...]` (values as JSON), `[=v]`, `[3]`. */
export function printElement(e: PathElement): string {
  const rest = e.slice(2);
  switch (e[0]) {
    case 'f': return `.${rest}`;
    case 'i': return `[${rest}]`;
    case 'v': return `[=${rest}]`;
    default: {
      const key = JSON.parse(rest) as Record<string, unknown>;
      return `[${Object.entries(key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    }
  }
}

export const printPath = (path: readonly PathElement[]): string => path.map(printElement).join('');

const compareBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const KIND_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** PathElement.Compare: field names, then keys, then values, then indices; within a kind, by content. */
export function compareElements(a: PathElement, b: PathElement): number {
  const ka = KIND_ORDER[a[0]!] ?? 4, kb = KIND_ORDER[b[0]!] ?? 4;
  if (ka !== kb) return ka - kb;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return compareBytes(a, b);
}

export class FieldSet {
  readonly members = new Set<PathElement>();
  readonly children = new Map<PathElement, FieldSet>();

  static fromPaths(paths: ReadonlyArray<readonly PathElement[]>): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  get empty(): boolean { return this.members.size === 0 && this.children.size === 0; }

  insert(path: readonly PathElement[]): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.child(path[i]!);
    node.members.add(path[path.length - 1]!);
  }

  /** The child set under `e`, made when absent (so callers drop it again if it stays empty). */
  child(e: PathElement): FieldSet {
    let c = this.children.get(e);
    if (!c) this.children.set(e, (c = new FieldSet()));
    return c;
  }

  /** Attaches `sub` under `e`, merging into what is there; an empty `sub` adds nothing. */
  attach(e: PathElement, sub: FieldSet | undefined): void {
    if (!sub || sub.empty) return;
    const there = this.children.get(e);
    this.children.set(e, there ? there.union(sub) : sub);
  }

  has(path: readonly PathElement[]): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) { node = node.children.get(path[i]!); if (!node) return false; }
    return path.length > 0 && node.members.has(path[path.length - 1]!);
  }

  union(o: FieldSet): FieldSet {
    if (o.empty) return this;
    if (this.empty) return o;
    const out = new FieldSet();
    for (const m of this.members) out.members.add(m);
    for (const m of o.members) out.members.add(m);
    for (const [e, c] of this.children) out.children.set(e, c);
    for (const [e, c] of o.children) { const mine = out.children.get(e); out.children.set(e, mine ? mine.union(c) : c); }
    return out;
  }

  /** Paths in this set and not in `o` (a member of `o` takes out only that member, not what is below it). */
  difference(o: FieldSet): FieldSet {
    if (o.empty || this.empty) return this;
    const out = new FieldSet();
    for (const m of this.members) if (!o.members.has(m)) out.members.add(m);
    for (const [e, c] of this.children) {
      const theirs = o.children.get(e);
      const d = theirs ? c.difference(theirs) : c;
      if (!d.empty) out.children.set(e, d);
    }
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    if (o.empty || this.empty) return out;
    for (const m of this.members) if (o.members.has(m)) out.members.add(m);
    for (const [e, c] of this.children) {
      const theirs = o.children.get(e);
      if (!theirs) continue;
      const i = c.intersection(theirs);
      if (!i.empty) out.children.set(e, i);
    }
    return out;
  }

  /** RecursiveDifference: also takes out everything below a member of `o` (what an ExcludeFilter does). */
  recursiveDifference(o: FieldSet): FieldSet {
    if (o.empty || this.empty) return this;
    const out = new FieldSet();
    for (const m of this.members) if (!o.members.has(m)) out.members.add(m);
    for (const [e, c] of this.children) {
      if (o.members.has(e)) continue;
      const theirs = o.children.get(e);
      const d = theirs ? c.recursiveDifference(theirs) : c;
      if (!d.empty) out.children.set(e, d);
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    if (this.members.size !== o.members.size || this.children.size !== o.children.size) return false;
    for (const m of this.members) if (!o.members.has(m)) return false;
    for (const [e, c] of this.children) { const t = o.children.get(e); if (!t || !c.equals(t)) return false; }
    return true;
  }

  /** Every member path, in upstream's iteration order (Set.Iterate: members, then children, each sorted). */
  paths(prefix: PathElement[] = [], out: PathElement[][] = []): PathElement[][] {
    for (const m of [...this.members].sort(compareElements)) out.push([...prefix, m]);
    for (const e of [...this.children.keys()].sort(compareElements)) this.children.get(e)!.paths([...prefix, e], out);
    return out;
  }
}
