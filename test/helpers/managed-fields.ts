// An object's managedFields entries, as the field-ownership tests read them.
export type Entry = { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: unknown; subresource?: string };
type WithManaged = { metadata: { managedFields?: Entry[] } };

export const entries = (obj: WithManaged): Entry[] => obj.metadata.managedFields ?? [];
export const byManager = (obj: WithManaged, manager: string, subresource?: string): Entry | undefined =>
  entries(obj).find((e) => e.manager === manager && e.subresource === subresource);
