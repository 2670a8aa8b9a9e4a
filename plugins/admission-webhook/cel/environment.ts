// The CEL environment of webhook match conditions: variables `object`, `oldObject` (dyn),
// `request` (the AdmissionRequest), `authorizer` (with `authorizer.requestResource`), the
// standard library, the strings extension and the authorizer library, as upstream declares them
// for webhooks (no `params`, no `namespaceObject`).
import { celEnv, CelScalar, objectType, type CelEnv } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { AUTHORIZER, authzFunctions, authzRegistry } from './authz-library.js';
import { REQUEST_TYPE, type CelTypeName } from './check.js';

export const matchConditionEnv: CelEnv = celEnv({
  registry: authzRegistry,
  funcs: [...strings, ...authzFunctions],
  variables: { object: CelScalar.DYN, oldObject: CelScalar.DYN, request: CelScalar.DYN, authorizer: objectType(AUTHORIZER) },
});

/** The same variables as the static checker sees them. */
export const matchConditionVars: ReadonlyMap<string, CelTypeName> = new Map<string, CelTypeName>([
  ['object', 'dyn'], ['oldObject', 'dyn'], ['request', REQUEST_TYPE], ['authorizer', `msg:${AUTHORIZER.typeName}`],
]);
