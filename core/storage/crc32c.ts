// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum etcd's snapshot status prints
// as its hash (crc32.MakeTable(crc32.Castagnoli)). Table-driven, a byte at a time: it runs once over a
// snapshot file's records, offline.
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** Go's crc32.Update: continues `crc` (0 to start) over `bytes`. */
export function crc32cUpdate(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
