// The key usages a CSR may request (KeyUsage values of certificates/v1), kept in the sorted order
// in which the `Unsupported value` message lists them.

export const VALID_USAGES: readonly string[] = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];

const validSet: ReadonlySet<string> = new Set(VALID_USAGES);

export const isValidUsage = (usage: string): boolean => validSet.has(usage);

export const hasUnknownUsages = (usages: readonly string[]): boolean => usages.some((u) => !validSet.has(u));

export const hasDuplicateUsages = (usages: readonly string[]): boolean => new Set(usages).size !== usages.length;
