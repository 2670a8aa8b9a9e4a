// The update handler's checkName: the body names the object the URL names. A body without a name
// fails in the namer's ObjectName with errEmptyName, whose text NAME_MUST_BE_PROVIDED is exported
// for the patch handler's checks, which quote the same error.
import { errors } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';

export const NAME_MUST_BE_PROVIDED = 'name must be provided';

export function checkName(obj: ApiObject, urlName: string): void {
  const name = obj.metadata.name ?? '';
  if (!name) throw errors.badRequest(`the name of the object (${urlName} based on URL) was undeterminable: ${NAME_MUST_BE_PROVIDED}`);
  if (name !== urlName) throw errors.badRequest(`the name of the object (${name}) does not match the name on the URL (${urlName})`);
}
