// node:http for the server, taken without its ES module wrapper.
//
// Why: `import … from 'node:http'` builds an ES module facade that reads every export of the
// module, and reading its lazy WebSocket and fetch exports loads undici: some 20 ms of every
// start-up, for code the server never runs. process.getBuiltinModule returns the module itself.

/** The node:http module. */
export const http = process.getBuiltinModule('node:http');
