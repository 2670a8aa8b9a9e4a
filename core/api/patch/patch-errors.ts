// The one status kube-apiserver gives a patch that parsed but cannot be applied to the object:
// handlers/patch.go wraps the library error with NewGenericServerResponse(422, ...), i.e. reason
// Invalid. Upstream hides the library text behind "the server rejected our request due to an error
// in our request" and a cause; we put the text in the message so that kubectl prints
// `The request is invalid: <what went wrong>` instead of a riddle.
import { StatusError } from '../errors.js';

export const patchNotApplicable = (message: string): StatusError =>
  new StatusError({ code: 422, reason: 'Invalid', message, details: {} });
