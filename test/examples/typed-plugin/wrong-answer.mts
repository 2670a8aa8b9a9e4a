// Must NOT compile: a signer answering `certificate` instead of `certificatePem`. Proves the types
// are plat's, not `any`.
import type { SigningResult } from 'plat';

export const answer: SigningResult = { certificate: 'typo' };
