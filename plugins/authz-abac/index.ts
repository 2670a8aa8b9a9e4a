export { AbacAuthorizer, POLICY_FILE_FLAG } from './abac-authorizer.js';
export { parsePolicyFile, PolicyFileError, POLICY_API_VERSION, POLICY_KIND } from './policy-file.js';
export type { Policy, ParsedPolicies } from './policy-file.js';
export { policyMatches, subjectMatches, verbMatches, resourceMatches, nonResourceMatches } from './policy-match.js';
