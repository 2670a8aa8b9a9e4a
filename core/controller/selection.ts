// --controllers, as k8s.io/controller-manager's IsControllerEnabled and Validate: the first item
// naming a controller (`foo` or `-foo`) decides; otherwise `*` enables what is on by default;
// without `*` nothing else runs. Every name must be known. In core because more than the
// controller manager asks: a controller's own resources (the signing CA files) are only loaded
// when it runs, as upstream reads them in the controller's start function.

/**
 * True when `name` runs under the `controllers` list. An item may name it by one of its `aliases`,
 * as upstream maps an alias to its controller before the list is read.
 */
export function isControllerEnabled(name: string, disabledByDefault: boolean, controllers: readonly string[], aliases: readonly string[] = []): boolean {
  let star = false;
  const names = [name, ...aliases];
  for (const item of controllers) {
    if (names.includes(item)) return true;
    if (item.startsWith('-') && names.includes(item.slice(1))) return false;
    if (item === '*') star = true;
  }
  return star && !disabledByDefault;
}

/** Upstream's errors for names that are not controllers (`known`: names and aliases), one per unknown item. */
export function unknownControllerErrors(controllers: readonly string[], known: readonly string[]): string[] {
  const errors: string[] = [];
  for (const item of controllers) {
    if (item === '*') continue;
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (!known.includes(name)) errors.push(`${JSON.stringify(name)} is not in the list of known controllers`);
  }
  return errors;
}

/**
 * The help text of --controllers, naming the controllers this plat has as upstream's flag does:
 * each list on a line of its own, sorted (upstream joins sets.List of the names).
 */
export function controllersHelp(all: readonly string[], disabledByDefault: readonly string[]): string {
  const list = (names: readonly string[]) => [...names].sort().join(', ');
  return "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', "
    + `'-foo' disables the controller named 'foo'.\nAll controllers: ${list(all)}\nDisabled-by-default controllers: ${list(disabledByDefault)}`;
}
