export { TokenFileAuthenticator, TOKEN_AUTH_FILE_FLAG } from './token-file-authenticator.js';
export { TokenTable, loadTokenFile, parseTokenFile, tokenDigest } from './token-table.js';
export type { DigestCompare, ParsedTokenFile } from './token-table.js';
export { bearerToken } from '../../core/authn/bearer.js';
export { parseCsv, CsvError } from './csv.js';
export type { CsvRecord } from './csv.js';
