// The node agent's feature gates: its 1.35 table (feature-gate-specs.ts) evaluated by the shared
// component-base evaluator (core/feature-gates/gate-table.ts). `FeatureGates` is both the table
// (`FeatureGates.evaluate(map)`, `.defaults()`, `.known()`) and the type of the gates in force.
import { type FeatureGateSet, GateTable } from '../feature-gates/gate-table.js';
import { FEATURE_GATE_DEPENDENCIES, FEATURE_GATES } from './feature-gate-specs.js';

export type { GateEvaluation } from '../feature-gates/gate-table.js';

export type FeatureGates = FeatureGateSet;
export const FeatureGates = new GateTable(FEATURE_GATES, FEATURE_GATE_DEPENDENCIES);
