// The CEL environment of webhook match conditions: variables `object`, `oldObject` (dyn),
// `request` (the AdmissionRequest), `authorizer` (with `authorizer.requestResource`), the
// standard library, the strings extension and the authorizer library, as upstream declares them
// for webhooks (no `params`, no `namespaceObject`).
import type { CelEnv } from '@bufbuild/cel';
import { cel, celExt } from '../../../core/cel-modules.js';
import { AUTHZ_TYPES, authzDescriptors, authzFunctions } from './authz-library.js';
import { REQUEST_TYPE, type CelTypeName } from './check.js';

let env: CelEnv | undefined;

/** Built when the first condition is compiled: a server with no match conditions loads no CEL. */
export function matchConditionEnv(): CelEnv {
  if (env) return env;
  const { celEnv, CelScalar, objectType } = cel();
  const { registry, AUTHORIZER } = authzDescriptors();
  return env = celEnv({
    registry,
    funcs: [...celExt().strings, ...authzFunctions()],
    variables: { object: CelScalar.DYN, oldObject: CelScalar.DYN, request: CelScalar.DYN, authorizer: objectType(AUTHORIZER) },
  });
}

/** The same variables as the static checker sees them. */
export const matchConditionVars: ReadonlyMap<string, CelTypeName> = new Map<string, CelTypeName>([
  ['object', 'dyn'], ['oldObject', 'dyn'], ['request', REQUEST_TYPE], ['authorizer', `msg:${AUTHZ_TYPES.authorizer}`],
]);
