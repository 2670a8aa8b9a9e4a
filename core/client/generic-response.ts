// apimachinery's NewGenericServerResponse: the reason and words client-go gives a non-2xx answer
// that carries no Status of its own (a proxy's HTML page, a bare text, JSON without `kind: Status`).

import { goQuote } from '../go-quote.js';

export interface GenericResponse { readonly reason: string; readonly message: string }

/**
 * `resource` is the qualified resource (`certificatesigningrequests.certificates.platform`) and
 * `name` the object's, for the ` (get <resource> <name>)` that client-go appends when it knows them;
 * `serverMessage` is the body when it was text, else `unknown` (the caller's choice, as client-go's).
 * The reason of an unknown answer is '' (metav1.StatusReasonUnknown).
 */
export function genericServerResponse(code: number, verb: string, serverMessage: string, resource = '', name = ''): GenericResponse {
  let reason = '';
  let message = `the server responded with the status code ${code} but did not return more information`;
  switch (code) {
    case 409: reason = verb === 'POST' ? 'AlreadyExists' : 'Conflict'; message = 'the server reported a conflict'; break;
    case 404: reason = 'NotFound'; message = 'the server could not find the requested resource'; break;
    case 400: reason = 'BadRequest'; message = 'the server rejected our request for an unknown reason'; break;
    case 401: reason = 'Unauthorized'; message = 'the server has asked for the client to provide credentials'; break;
    // The server's words say who may not do what.
    case 403: reason = 'Forbidden'; message = serverMessage; break;
    case 406:
      reason = 'NotAcceptable';
      message = serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
      break;
    case 415: reason = 'UnsupportedMediaType'; message = serverMessage; break;
    case 405: reason = 'MethodNotAllowed'; message = 'the server does not allow this method on the requested resource'; break;
    case 422: reason = 'Invalid'; message = 'the server rejected our request due to an error in our request'; break;
    case 503: reason = 'ServiceUnavailable'; message = 'the server is currently unable to handle the request'; break;
    case 504: reason = 'Timeout'; message = 'the server was unable to return a response in the time allotted, but may still be processing the request'; break;
    case 429: reason = 'TooManyRequests'; message = 'the server has received too many requests and has asked us to try again later'; break;
    default:
      if (code >= 500) { reason = 'InternalError'; message = `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`; }
  }
  if (resource) message = `${message} (${verb.toLowerCase()} ${resource}${name ? ` ${name}` : ''})`;
  return { reason, message };
}
