// encoding/asn1's verdict on a UTCTime or GeneralizedTime value of a CSR subject (parseUTCTime,
// parseGeneralizedTime): time.Parse with their layouts, and time.Format must give the value back.
// Format only writes fixed-width digits and 'Z' or +-hhmm, so what passes is exactly this canonical
// form: UTCTime YYMMDDhhmm[ss], GeneralizedTime YYYYMMDDhhmmss, then 'Z' or an offset that is not
// zero (Format writes zero as 'Z'), whose hour is at most 24 (Parse's range) and minute at most 59
// (a 60 formats as the next hour). core/crypto/go-asn1-time.ts follows time.Parse step by step for
// Go's error text; the tests hold both to the same verdicts.

function two(p: usize): i32 {
  const a = <i32>load<u8>(p) - 0x30;
  const b = <i32>load<u8>(p + 1) - 0x30;
  return a < 0 || a > 9 || b < 0 || b > 9 ? -1 : a * 10 + b;
}

/** Whether Go takes the value at p..p+len (num: 0x17 UTCTime, 0x18 GeneralizedTime). */
export function goAsn1TimeOk(num: u32, p: usize, len: usize): bool {
  let year: i32;
  let q: usize;
  if (num == 0x18) {
    if (len != 15 && len != 19) return false;
    const hi = two(p), lo = two(p + 2);
    if (hi < 0 || lo < 0) return false;
    year = hi * 100 + lo;
    q = p + 4;
  } else {
    if (len != 11 && len != 13 && len != 15 && len != 17) return false;
    const yy = two(p);
    if (yy < 0) return false;
    // time.Parse's two-digit years: 69..99 are 19xx, the rest 20xx (parseUTCTime's 2050 shift comes after).
    year = yy >= 69 ? 1900 + yy : 2000 + yy;
    q = p + 2;
  }
  const month = two(q), day = two(q + 2), hour = two(q + 4), minute = two(q + 6);
  if (month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
  let days = 31;
  if (month == 4 || month == 6 || month == 9 || month == 11) days = 30;
  else if (month == 2) days = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
  if (day > days) return false;
  q += 8;
  // UTCTime's seconds are there when 3 ('ssZ') or 7 ('ss+hhmm') bytes remain.
  const rest = p + len - q;
  if (num == 0x18 || rest == 3 || rest == 7) {
    const second = two(q);
    if (second < 0 || second > 59) return false;
    q += 2;
  }
  const zone = load<u8>(q);
  if (p + len - q == 1) return zone == 0x5a;
  if (zone != 0x2b && zone != 0x2d) return false;
  const zh = two(q + 1), zm = two(q + 3);
  return zh >= 0 && zh <= 24 && zm >= 0 && zm <= 59 && zh + zm > 0;
}
