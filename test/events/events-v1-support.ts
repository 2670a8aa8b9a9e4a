// An events.platform/v1 Event body that passes the strict validation, for the events/v1 tests.
export const v1Event = (name: string, over: Record<string, unknown> = {}) => ({
  apiVersion: 'events.platform/v1', kind: 'Event', metadata: { name },
  eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'platform/tester', reportingInstance: 'tester-1',
  action: 'Check', reason: 'Started', regarding: { kind: 'Node', name: 'n1', uid: `uid-${name}`, apiVersion: 'v1' },
  note: 'hello', type: 'Normal', ...over,
});
