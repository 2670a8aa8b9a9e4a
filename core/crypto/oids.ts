// Object identifiers the core understands, by dotted string. Names follow OpenSSL's long names so that
// `signatureAlgorithm` reads the same as `openssl req -text`.

export const OID = {
  // public key algorithms
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsassaPss: '1.2.840.113549.1.1.10',
  ecPublicKey: '1.2.840.10045.2.1',
  dsa: '1.2.840.10040.4.1',
  ed25519: '1.3.101.112',
  ed448: '1.3.101.113',
  x25519: '1.3.101.110',
  // RFC 9881: one OID per parameter set, for the key and for the signature alike
  mlDsa44: '2.16.840.1.101.3.4.3.17',
  mlDsa65: '2.16.840.1.101.3.4.3.18',
  mlDsa87: '2.16.840.1.101.3.4.3.19',
  // named curves
  p224: '1.3.132.0.33',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  p521: '1.3.132.0.35',
  // signature algorithms
  md5WithRSA: '1.2.840.113549.1.1.4',
  sha1WithRSA: '1.2.840.113549.1.1.5',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  sha384WithRSA: '1.2.840.113549.1.1.12',
  sha512WithRSA: '1.2.840.113549.1.1.13',
  ecdsaWithSHA1: '1.2.840.10045.4.1',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  // hashes and PSS parts
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  mgf1: '1.2.840.113549.1.1.8',
  // PKCS#9
  extensionRequest: '1.2.840.113549.1.9.14',
  // X.509 extensions
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  nameConstraints: '2.5.29.30',
  crlDistributionPoints: '2.5.29.31',
  certificatePolicies: '2.5.29.32',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
} as const;

/** Short names for DN attribute types, as RFC 4514 and OpenSSL print them. */
export const DN_SHORT_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.17': 'postalCode',
  '2.5.4.42': 'GN',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
};

export const DN_COMMON_NAME = '2.5.4.3';
export const DN_ORGANIZATION = '2.5.4.10';
export const DN_ORGANIZATIONAL_UNIT = '2.5.4.11';
