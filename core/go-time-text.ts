// Go's `%v` of a time.Time in UTC, as upstream's messages print one (a certificate's NotAfter).

/** `2026-05-01 12:00:00 +0000 UTC`; fractional seconds only when there are any. */
export function goTime(d: Date): string {
  const iso = d.toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}
