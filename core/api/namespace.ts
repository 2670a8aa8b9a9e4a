// The core/v1 Namespace as it travels on the wire and sits in storage, shared by the plugin that
// serves it and the namespace controller, which reads and finalizes it through the API.
import type { ApiObject } from './meta.js';

/** A NamespaceCondition (the namespace controller's NamespaceDeletion* and *Remaining ones). */
export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Namespace extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}
