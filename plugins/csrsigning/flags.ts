// The controller manager's "Certificate signing" flags (spec 02) and which CA files each
// well-known signer uses: the generic pair for all four, or, as soon as any per-signer flag is
// given, only the signers given their own pair. Mixing the two, or half a pair, is refused at
// start-up (upstream's CSRSigningControllerOptions.Validate).
import type { FlagSet, FlagSpec } from '../../core/flags/types.js';
import { APISERVER_CLIENT_SIGNER, LEGACY_UNKNOWN_SIGNER, NODEAGENT_CLIENT_SIGNER, NODEAGENT_SERVING_SIGNER } from './signers.js';

export const SECTION = 'Certificate signing';
export const DURATION_FLAG = 'cluster-signing-duration';
const GENERIC = 'cluster-signing';

/** Each signer's flag prefix, in upstream's order of starting them. */
export const SIGNER_FLAGS: readonly { readonly signer: string; readonly prefix: string }[] = [
  { signer: NODEAGENT_SERVING_SIGNER, prefix: 'cluster-signing-nodeagent-serving' },
  { signer: NODEAGENT_CLIENT_SIGNER, prefix: 'cluster-signing-nodeagent-client' },
  { signer: APISERVER_CLIENT_SIGNER, prefix: 'cluster-signing-plat-apiserver-client' },
  { signer: LEGACY_UNKNOWN_SIGNER, prefix: 'cluster-signing-legacy-unknown' },
];

export function defineSigningFlags(flags: FlagSet): void {
  const file = (name: string, help: string): FlagSpec => ({ name, type: 'string', default: '', help, section: SECTION });
  const generic = 'PEM CA certificate (X509) and RSA, ECDSA or Ed25519 private key for all cluster-scoped certificates; if given, no more specific --cluster-signing-* option may be given.';
  flags.define(file(`${GENERIC}-cert-file`, generic));
  flags.define(file(`${GENERIC}-key-file`, generic));
  for (const { signer, prefix } of SIGNER_FLAGS) {
    const help = `CA and key for signer \`${signer}\`; when given, the generic pair must not be set.`;
    flags.define(file(`${prefix}-cert-file`, help));
    flags.define(file(`${prefix}-key-file`, help));
  }
  flags.define({
    name: DURATION_FLAG, type: 'duration', default: 8760 * 3600_000, section: SECTION,
    help: 'Maximum lifetime of issued certificates; a request may ask for less through `spec.expirationSeconds`.',
    validate: (v) => ((v as number) <= 0 ? 'must be greater than 0' : undefined),
  });
}

export interface FilePair { readonly certFile: string; readonly keyFile: string }

/** The signers with a CA pair, in start order. */
export type SignerFiles = readonly { readonly signer: string; readonly files: FilePair }[];

/** A problem with the flags and the flags it is about. */
export interface SigningFlagProblem { readonly message: string; readonly flags: readonly string[] }

/** Problems with the flags; empty when they are fine. */
export function signingFlagProblems(flags: FlagSet): SigningFlagProblem[] {
  const pair = (prefix: string): FilePair => ({ certFile: flags.get<string>(`${prefix}-cert-file`), keyFile: flags.get<string>(`${prefix}-key-file`) });
  const problems: SigningFlagProblem[] = [];
  const half = (prefix: string) => {
    const p = pair(prefix);
    if (!p.certFile && p.keyFile) problems.push({ message: `"${prefix}": cannot specify key without cert`, flags: [`${prefix}-key-file`] });
    if (p.certFile && !p.keyFile) problems.push({ message: `"${prefix}": cannot specify cert without key`, flags: [`${prefix}-cert-file`] });
  };
  for (const { prefix } of SIGNER_FLAGS) half(prefix);
  // Upstream silently skips signing with half a generic pair; a mistyped flag is better caught.
  half(GENERIC);
  const given = (prefix: string) => [`${prefix}-cert-file`, `${prefix}-key-file`].filter((f) => flags.get<string>(f) !== '');
  const generic = given(GENERIC);
  const specific = SIGNER_FLAGS.flatMap(({ prefix }) => given(prefix));
  if (generic.length && specific.length) {
    problems.push({ message: 'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time', flags: [...generic, ...specific] });
  }
  return problems;
}

/** The CA files of each signer, once signingFlagProblems found nothing. */
export function signerFiles(flags: FlagSet): SignerFiles {
  const pair = (prefix: string): FilePair => ({ certFile: flags.get<string>(`${prefix}-cert-file`), keyFile: flags.get<string>(`${prefix}-key-file`) });
  const specific = SIGNER_FLAGS.map(({ signer, prefix }) => ({ signer, files: pair(prefix) }));
  if (specific.some(({ files }) => files.certFile)) {
    return specific.filter(({ files }) => files.certFile);
  }
  const generic = pair(GENERIC);
  if (!generic.certFile) return [];
  return SIGNER_FLAGS.map(({ signer }) => ({ signer, files: generic }));
}
