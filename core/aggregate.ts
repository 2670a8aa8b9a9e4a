// utilerrors.NewAggregate's Error() text, which upstream prints for a list of problems found
// together (options validation, field errors, node conditions).

/** One problem bare; several in brackets, comma-separated, each text once. */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
