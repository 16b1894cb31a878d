// Entry of the production server (`npm run serve`, `npm start`): turns on Node's on-disk compile
// cache before anything else loads, then starts src/server/server.ts.
//
// The cache (module.enableCompileCache: V8 code cache plus the TypeScript-stripped sources, in
// NODE_COMPILE_CACHE or <tmpdir>/node-compile-cache) spares every later start the parsing and
// type stripping of the server's modules, a third of its start-up (docs/server.md). Set
// NODE_DISABLE_COMPILE_CACHE=1 to turn it off.
import module from 'node:module';

module.enableCompileCache?.();
await import('./server.ts');
