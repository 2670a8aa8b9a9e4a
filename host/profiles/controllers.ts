// The controllers (each plugin registers its own through hooks.controllers). `plat
// controller-manager` runs them with its API connection and endpoint; `plat all` runs the same
// list inside the API server's process.
import type { Plugin } from '../../core/plugin.js';
import { ClusterSigner, CsrSigningController } from '../../plugins/csrsigning/index.js';
import { CsrApprovingController } from '../../plugins/csrapproving/index.js';
import { CsrCleanerController } from '../../plugins/csrcleaner/index.js';
import { NamespaceController } from '../../plugins/namespace/index.js';
import { NodeLifecycleController } from '../../plugins/nodelifecycle-controller/index.js';
import { ServiceAccountController } from '../../plugins/serviceaccount-controller/index.js';
import { GarbageCollectorController } from '../../plugins/garbagecollector/index.js';
import { ClusterRoleAggregationController } from '../../plugins/clusterrole-aggregation/index.js';
import { TokenCleanerController } from '../../plugins/tokencleaner/index.js';
import { ServiceAccountTokenController } from '../../plugins/serviceaccount-token-controller/index.js';
import { LegacyServiceAccountTokenCleanerController } from '../../plugins/legacy-token-cleaner/index.js';

// The tokens controller first: upstream starts it before the others (its tokens may be what they need).
export const controllerManagerPlugins: readonly Plugin[] = [ServiceAccountTokenController, CsrSigningController, ClusterSigner, CsrApprovingController, CsrCleanerController, NamespaceController, ServiceAccountController, GarbageCollectorController, ClusterRoleAggregationController, NodeLifecycleController, TokenCleanerController, LegacyServiceAccountTokenCleanerController];
