// What third-party plugins import (`import { errors } from 'plat'`): the plugin and hook types and
// the Status errors. Everything else in core/ is internal.
export type { Plugin } from './plugin.js';
export { StartupError } from './plugin.js';
export type { Host } from './host.js';
export type { Hooks, Configuration } from './hooks.js';
export type { AdmissionRequest, AdmissionOperation } from './admission/request.js';
export type { Attributes, Decision } from './authz/attributes.js';
export type { UserInfo, AuthenticationRequest } from './authn/user.js';
export type { SigningRequest, SigningResult } from './signing.js';
export type { ApiObject, ObjectMeta } from './api/meta.js';
export type { FlagSpec, FlagSet } from './flags/types.js';
export { errors, StatusError } from './api/errors.js';
export { fieldError } from './api/field-errors.js';
