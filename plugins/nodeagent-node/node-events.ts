// The kubelet's node Events, for what the node agent does: `Starting` when it starts working
// against the API server, and its status setters' transitions (NodeReady, NodeNotReady,
// NodeHasSufficientMemory, NodeHasNoDiskPressure, NodeHasSufficientPID and their opposites) as
// recordNodeStatusEvent writes them, `Node <name> status is now: <event>`. The Events are about the
// kubelet's nodeRef (kind Node, uid the node's name, no namespace: they land in `default`), from
// source `nodeagent` on host <node>. They are written by an event client of their own, limited by
// eventRecordQPS/eventBurst (--event-qps, --event-burst; 0 means 5 and 10, as a rest.Config's),
// and logged at V(3) as `Event occurred`.
import type { ObjectReference } from '../../core/api/event.js';
import { EventBroadcaster } from '../../core/client/events/event-broadcaster.js';
import { restEventSink } from '../../core/client/events/event-sink.js';
import type { RestClient } from '../../core/client/rest-client.js';
import type { Logger } from '../../core/log.js';
import type { RecordNodeStatusEvent } from './conditions.js';

/** The kubelet's EventSource component, under plat's name. */
export const NODE_AGENT_COMPONENT = 'nodeagent';
/** events.StartingKubelet. */
export const STARTING_REASON = 'Starting';

export interface NodeEventOptions {
  readonly nodeName: string;
  readonly eventRecordQPS: number;
  readonly eventBurst: number;
  readonly logger: Logger;
  /** Test clocks for the broadcaster (now, and recordToSink's sleep). */
  readonly now?: () => number;
}

export class NodeEvents {
  readonly #o: NodeEventOptions;
  readonly #broadcaster: EventBroadcaster;
  readonly #recorder;
  readonly #ref: ObjectReference;

  constructor(o: NodeEventOptions) {
    this.#o = o;
    this.#broadcaster = new EventBroadcaster({ logger: o.logger, ...(o.now ? { now: o.now } : {}) });
    this.#recorder = this.#broadcaster.newRecorder({ component: NODE_AGENT_COMPONENT, host: o.nodeName });
    this.#ref = { kind: 'Node', name: o.nodeName, uid: o.nodeName };
  }

  /** Starts the structured log and the writes through the node's client (`api()` at each write: its certificate rotates). */
  start(api: () => RestClient): void {
    this.#broadcaster.startStructuredLogging(3);
    this.#broadcaster.startRecordingToSink(restEventSink(api, { qps: this.#o.eventRecordQPS, burst: this.#o.eventBurst }));
  }

  /** `Starting nodeagent.` (the kubelet's `Starting kubelet.`). */
  starting(): void {
    this.#recorder.event(this.#ref, 'Normal', STARTING_REASON, `Starting ${NODE_AGENT_COMPONENT}.`);
  }

  /** recordNodeStatusEvent. */
  readonly recordNodeStatusEvent: RecordNodeStatusEvent = (eventType, event) => {
    this.#o.logger.v(2).info('Recording event message for node', { node: this.#o.nodeName, event });
    if (event === 'NodeNotReady') this.#o.logger.info('Node became not ready', { node: this.#o.nodeName });
    this.#recorder.event(this.#ref, eventType, event, `Node ${this.#o.nodeName} status is now: ${event}`);
  };

  shutdown(): void { this.#broadcaster.shutdown(); }
}
