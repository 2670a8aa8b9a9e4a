// A metric's children found by the path of their label values through nested maps, so that
// recording on the request path costs a few Map lookups and builds no label string.

/** Children by a path of label values, made on first use and kept. */
export class Children<C> {
  readonly #root = new Map<string, unknown>();
  constructor(private readonly make: (values: string[]) => C) {}
  get(...values: string[]): C {
    let node = this.#root;
    for (let i = 0; i < values.length - 1; i++) {
      let next = node.get(values[i]!) as Map<string, unknown> | undefined;
      if (!next) node.set(values[i]!, (next = new Map()));
      node = next;
    }
    const last = values[values.length - 1]!;
    let c = node.get(last) as C | undefined;
    if (c === undefined) node.set(last, (c = this.make(values)));
    return c;
  }
}
