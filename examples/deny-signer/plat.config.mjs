// Found by cosmiconfig when plat starts in this directory (or with PLAT_CONFIG pointing here).
export default {
  plugins: [
    ['./deny-signer-plugin.mjs', { signerNames: ['example.com/forbidden'], maxRequestBytes: 16384 }],
  ],
};
