// The control plane's gate table, evaluated by the shared evaluator.
import { CONTROL_PLANE_FEATURE_GATES } from './control-plane-specs.js';
import { GateTable } from './gate-table.js';

export const CONTROL_PLANE_GATES = new GateTable(CONTROL_PLANE_FEATURE_GATES);
