// k8s.io/utils/cpuset.Parse's syntax check of a Linux CPU list (`0-3,8,10-11`), with its error
// texts. Only the verdict is needed here: no CPU is pinned by plat.

const atoi = (s: string): number => {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
};

/** The error cpuset.Parse would return for `s`, if any. */
export function parseCpuSet(s: string): { error?: string } {
  if (s === '') return {};
  try {
    for (const r of s.split(',')) {
      const dash = r.indexOf('-');
      if (dash === -1) {
        atoi(r);
        continue;
      }
      const start = atoi(r.slice(0, dash));
      const end = atoi(r.slice(dash + 1));
      if (start > end) throw new Error(`invalid range ${JSON.stringify(r)} (${start} > ${end})`);
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
  return {};
}
