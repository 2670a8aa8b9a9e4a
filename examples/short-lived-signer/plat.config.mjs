// Found by cosmiconfig when plat starts in this directory (or with PLAT_CONFIG pointing here).
// SHORT_LIVED_SIGNER_CA_DIR keeps the signer's CA in a directory; without it the CA lives in memory.
export default {
  plugins: [
    ['./short-lived-signer-plugin.mjs', {
      signerName: 'example.com/short-lived',
      maxLifetimeSeconds: 3600,
      ...(process.env.SHORT_LIVED_SIGNER_CA_DIR ? { caDir: process.env.SHORT_LIVED_SIGNER_CA_DIR } : {}),
    }],
  ],
};
