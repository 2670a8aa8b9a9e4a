// Go's `%v` of a time.Time in UTC, as upstream's messages print one (a certificate's NotAfter, a
// token's expiry).

/** `2026-05-01 12:00:00 +0000 UTC`; fractional seconds only when there are any. */
export function goTime(d: Date): string {
  const ms = d.getTime();
  const sec = Math.floor(ms / 1000);
  return goUnixTimeText(BigInt(sec), (ms - sec * 1000) * 1_000_000);
}

/** Go's `%v` of `time.Unix(sec, nsec)` in UTC: `2026-11-29 13:15:04 +0000 UTC`, years as Go pads them. */
export function goUnixTimeText(sec: bigint, nsec = 0): string {
  const days = sec >= 0n ? sec / 86_400n : -((-sec + 86_399n) / 86_400n);
  const rem = Number(sec - days * 86_400n);
  // Days to civil date (Howard Hinnant's algorithm), in BigInt so any int64 works.
  const z = days + 719_468n;
  const era = (z >= 0n ? z : z - 146_096n) / 146_097n;
  const doe = z - era * 146_097n;
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const p2 = (n: number | bigint) => String(n).padStart(2, '0');
  const y = year < 0n ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  const frac = nsec ? `.${String(nsec).padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${y}-${p2(month)}-${p2(day)} ${p2(Math.floor(rem / 3600))}:${p2(Math.floor(rem / 60) % 60)}:${p2(rem % 60)}${frac} +0000 UTC`;
}

