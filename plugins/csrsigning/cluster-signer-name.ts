// The built-in signer's tap name: its errors are upstream's own and are logged as upstream logs
// them, without the name of the plugin that threw (which a third-party signer's errors carry).
export const CLUSTER_SIGNER = 'ClusterSigner';
