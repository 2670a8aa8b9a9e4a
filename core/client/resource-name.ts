// Which names can go into a request path: apimachinery's path.IsValidPathSegmentName, as
// client-go's Request.Name checks it before sending anything. An empty name would otherwise turn
// `GET .../certificatesigningrequests/NAME` into a list and `PUT .../NAME/approval` into a request
// for an object called "approval"; "." and ".." are resolved away by URL parsing.
import { goQuote } from '../go-quote.js';

const MAY_NOT_BE = ['.', '..'];
const MAY_NOT_CONTAIN = ['/', '%'];

/** path.IsValidPathSegmentName: the reasons `name` cannot be one segment of a path. */
export function pathSegmentNameErrors(name: string): string[] {
  for (const bad of MAY_NOT_BE) if (name === bad) return [`may not be '${bad}'`];
  return MAY_NOT_CONTAIN.filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** client-go's words for a name it will not put in a path, or undefined for a good one. */
export function resourceNameError(name: string): string | undefined {
  if (name === '') return 'resource name may not be empty';
  const errors = pathSegmentNameErrors(name);
  // Go's %v of a []string: [a b].
  return errors.length ? `invalid resource name ${goQuote(name)}: [${errors.join(' ')}]` : undefined;
}
