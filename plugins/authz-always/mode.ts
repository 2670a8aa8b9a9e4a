// Shared by the two authorizers of this folder: where a mode sits in --authorization-mode.
export const AUTHORIZATION_MODE_FLAG = 'authorization-mode';
export const AUTHORIZATION_MODE_KIND = 'authorization-mode';

/** The tap stage for `mode`: its first index in the mode list, or undefined when not listed. */
export function modeStage(modes: readonly string[] | undefined, mode: string): number | undefined {
  const index = modes?.indexOf(mode) ?? -1;
  return index < 0 ? undefined : index;
}
