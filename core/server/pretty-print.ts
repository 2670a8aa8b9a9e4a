// Whether a JSON answer is indented. Upstream's NegotiateOutputMediaType swaps in the pretty
// serializer (json.MarshalIndent with two spaces and no trailing newline) when the Accept clause
// it chose says pretty=1 or isPrettyPrint says a person asked: the pretty query parameter, or
// else a browser's or a command-line tool's User-Agent, so curl gets indented JSON and kubectl
// ("kubectl/v1.32...") does not. Only JSON has a pretty serializer, and a watch streams with the
// stream serializer, which never is one. Objects, lists, Tables, Status errors and discovery all
// go through it; /version, the root path list and a failed negotiation are always indented
// (WriteRawJSON), a request timeout's Status never (json.Encoder).
import type { Context } from 'koa';
import { parseBool } from '../flags/parse-value.js';
import { goQueryGet } from './go-query.js';

const HUMAN_USER_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

/** negotiation.isPrettyPrint. A pretty parameter that strconv.ParseBool refuses is false. */
export function isPrettyPrint(ctx: Context): boolean {
  // Upstream parses the query only when the raw text names it, so an escaped key (pr%65tty) is not read.
  const asked = ctx.querystring.includes('pretty') ? goQueryGet(ctx.querystring, 'pretty') : '';
  if (asked) {
    try { return parseBool(asked); } catch { return false; }
  }
  const userAgent = ctx.get('user-agent');
  return HUMAN_USER_AGENTS.some((prefix) => userAgent.startsWith(prefix));
}

/**
 * The serializer choice: `served` is the media type whose serializer the negotiation picked,
 * `params` the parameters of the Accept clause that picked it (acceptMediaTypeOptions counts
 * pretty=1 only), `prettyPrint` the request's isPrettyPrint.
 */
export function choosesPretty(served: string, params: ReadonlyMap<string, string> | undefined, prettyPrint: boolean): boolean {
  return served === 'application/json' && (params?.get('pretty') === '1' || prettyPrint);
}
