// Kubernetes usage names <-> X.509 keyUsage bits and extKeyUsage OIDs (the dictionaries of the k8s
// signer's keyUsagesFromStrings, including its aliases 'signing' and 's/mime').
import { CryptoError } from './errors.js';

/** keyUsage name -> bit number (RFC 5280 §4.2.1.3). */
export const KEY_USAGE_BITS: Readonly<Record<string, number>> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** Canonical name of each keyUsage bit, for reading certificates. */
export const KEY_USAGE_NAMES: readonly string[] = [
  'digital signature',
  'content commitment',
  'key encipherment',
  'data encipherment',
  'key agreement',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
];

/** extKeyUsage name -> OID, in Go's ExtKeyUsage enum order (the order signers sort into). */
export const EXT_KEY_USAGE_OIDS: Readonly<Record<string, string>> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

const EKU_ORDER = [...new Set(Object.values(EXT_KEY_USAGE_OIDS))];

/** OID -> canonical name ('s/mime' reads back as 'email protection'). */
export const EXT_KEY_USAGE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(EXT_KEY_USAGE_OIDS)
    .filter(([name]) => name !== 's/mime')
    .map(([name, o]) => [o, name]),
);

/**
 * Splits CSR `spec.usages` into key usages and extended key usages, as the Kubernetes signer does;
 * unknown names fail with its message.
 */
export function keyUsagesFromStrings(usages: readonly string[]): { keyUsage: string[]; extKeyUsage: string[] } {
  const keyUsage: string[] = [];
  const ext = new Set<string>();
  const unrecognized: string[] = [];
  for (const u of usages) {
    if (KEY_USAGE_BITS[u] !== undefined) keyUsage.push(u);
    else if (EXT_KEY_USAGE_OIDS[u] !== undefined) ext.add(u);
    else unrecognized.push(u);
  }
  if (unrecognized.length > 0) {
    throw new CryptoError(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]`);
  }
  const extKeyUsage = [...ext].sort((a, b) => EKU_ORDER.indexOf(EXT_KEY_USAGE_OIDS[a]!) - EKU_ORDER.indexOf(EXT_KEY_USAGE_OIDS[b]!));
  return { keyUsage, extKeyUsage };
}

/** keyUsage names -> the named-bit-list BIT STRING body (bytes + unused bits), minimal as DER requires. */
export function keyUsageBits(names: readonly string[]): { bytes: Uint8Array; unusedBits: number } {
  let mask = 0;
  for (const n of names) {
    const bit = KEY_USAGE_BITS[n];
    if (bit === undefined) throw new RangeError(`unknown key usage: ${JSON.stringify(n)}`);
    mask |= 1 << bit;
  }
  if (mask === 0) throw new RangeError('keyUsage must name at least one usage');
  const highest = 31 - Math.clz32(mask);
  const byteCount = Math.floor(highest / 8) + 1;
  const bytes = new Uint8Array(byteCount);
  for (let bit = 0; bit <= highest; bit++) if (mask & (1 << bit)) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return { bytes, unusedBits: byteCount * 8 - 1 - highest };
}

/** extKeyUsage names -> distinct OIDs in Go's enum order. */
export function extKeyUsageOids(names: readonly string[]): string[] {
  const oids = new Set<string>();
  for (const n of names) {
    const o = EXT_KEY_USAGE_OIDS[n];
    if (o === undefined) throw new RangeError(`unknown extended key usage: ${JSON.stringify(n)}`);
    oids.add(o);
  }
  return [...oids].sort((a, b) => EKU_ORDER.indexOf(a) - EKU_ORDER.indexOf(b));
}
