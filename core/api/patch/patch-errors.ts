// The one status kube-apiserver gives a patch that parsed but cannot be applied to the object
// (a JSON patch operation that fails, a strategic merge patch with a list of lists): handlers/
// patch.go answers NewGenericServerResponse(422, "", GroupResource{}, "", err.Error(), 0, false),
// which keeps nothing of the library's text: reason Invalid, a fixed message, empty details.
// The library's words stay on the error's `cause`, off the wire, for plat's own tests.
import { StatusError } from '../errors.js';

export const patchNotApplicable = (cause: string): StatusError => {
  const e = new StatusError({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} });
  e.cause = cause;
  return e;
};
