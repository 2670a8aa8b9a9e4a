// /pods (and /runningpods/): the pods as a core/v1 PodList, as upstream's encodePods writes it.
// Upstream builds the list from a nil slice, so an empty list has `"items":null`; that is kept,
// since clients of the original see the same bytes.
export interface PodList {
  readonly kind: 'PodList';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly items: readonly unknown[] | null;
}

export function podList(pods: readonly unknown[] | undefined): PodList {
  return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods && pods.length ? [...pods] : null };
}
