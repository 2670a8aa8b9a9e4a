// Positional arguments, which no role takes, refused in the words and order of the upstream
// component: kube-apiserver and kube-controller-manager use cobra's Args check (non-empty
// arguments only, after --help has been answered); the kubelet parses its flags itself and refuses
// any argument, an empty one too, before it looks at --help.
import { goQuote } from './go-quote.js';

/** `cobra`: kube-apiserver's and kube-controller-manager's; `kubelet`: the kubelet's. */
export type ArgumentsCheck = 'cobra' | 'kubelet';

/** True when the check refuses `positional` before --help and --version are answered. */
export function refusedBeforeHelp(check: ArgumentsCheck, positional: readonly string[]): boolean {
  return check === 'kubelet' && positional.length > 0;
}

/** The error for `positional` of `command` (`plat controller-manager`, cobra's CommandPath), or undefined. */
export function argumentsError(check: ArgumentsCheck, command: string, positional: readonly string[]): string | undefined {
  if (check === 'kubelet') return positional.length > 0 ? `unknown command ${positional[0]}` : undefined;
  if (!positional.some((a) => a !== '')) return undefined;
  // Go's %q of a []string: each element quoted, space-separated, in brackets.
  return `${goQuote(command)} does not take any arguments, got [${positional.map(goQuote).join(' ')}]`;
}
