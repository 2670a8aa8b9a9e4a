// handlers/rest.go checkName for a written object (update, patch, apply): the object must name
// the object the URL names. ContextBasedNaming.ObjectName cannot name an object without a name,
// so that is its own error rather than a mismatch with "".
import { errors } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';

export function checkName(obj: ApiObject, name: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName === '') throw errors.badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (objName !== name) throw errors.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
}
