// Flags whose upstream Value is a type of its own (component-base's or the kubelet's), declared in
// plat as a plain list: their String() is not the list's `[a,b]`. Keyed by flag name, as the types
// belong to those flags alone; the values are the list plat parsed.

/** String() of cliflag.LangleSeparatedMapStringString: `k<v` pairs, sorted, comma-joined. */
function langleMap(items: readonly string[]): string {
  const map = new Map<string, string>();
  for (const pair of items.flatMap((i) => i.split(',')).filter((p) => p !== '')) {
    const at = pair.indexOf('<');
    if (at >= 0) map.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return [...map].map(([k, v]) => `${k}<${v}`).sort().join(',');
}

/** String() of the kubelet's RegisterWithTaintsVar: each `key=value:Effect`, comma-joined. */
function taints(items: readonly string[]): string {
  return items.flatMap((i) => i.split(',')).filter((t) => t !== '').map((t) => {
    const colon = t.lastIndexOf(':');
    const [kv, effect] = colon >= 0 ? [t.slice(0, colon), t.slice(colon + 1)] : [t, ''];
    const eq = kv.indexOf('=');
    return eq >= 0 ? `${kv.slice(0, eq)}=${kv.slice(eq + 1)}:${effect}` : `${kv}=:${effect}`;
  }).join(',');
}

export const UPSTREAM_VALUE_STRINGS: Readonly<Record<string, (items: readonly string[]) => string>> = {
  'eviction-hard': langleMap,
  'eviction-soft': langleMap,
  'register-with-taints': taints,
  // The kubelet's ReservedMemoryVar: sorted `numa:limits` entries, empty when none.
  'reserved-memory': (items) => [...items].sort().join(','),
  // cliflag.NamedCertKeyArray: each `cert,key[:names]`, `;`-joined in brackets.
  'tls-sni-cert-key': (items) => `[${items.join(';')}]`,
};
