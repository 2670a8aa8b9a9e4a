// "did you mean" for mistyped flag names. Optimal string alignment distance counts a
// transposition as one edit: `--secure-prot` is one typo away from `--secure-port`, not two.

export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `name`, when close enough to be a typo: at most 2 edits, or a quarter
 * of the name's length for long names; a candidate that `name` is a prefix of also counts
 * (`--request` suggests `--request-timeout`). Ties go to the alphabetically first name so the
 * message is stable.
 */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  // The spec renames upstream's kube* flags (--kubeconfig is --platconfig, --kube-api-qps is
  // --plat-api-qps): an operator's habit is a rename away, not a typo away.
  const renamed = name.replace(/kube/g, 'plat');
  const all = [...candidates];
  if (renamed !== name && all.includes(renamed)) return renamed;
  const limit = Math.max(2, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of all) {
    let score = editDistance(name, c);
    if (score > limit && name.length >= 3 && c.startsWith(name)) score = limit;
    if (score > limit || score >= name.length) continue; // `-q` is not a typo of `-v`
    if (score < bestScore || (score === bestScore && best !== undefined && c < best)) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
