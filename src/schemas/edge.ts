// `.edge/state.json`: what `npm run edge` started, each part with its pid and port (src/edge/edge.ts).
import { z } from 'zod';

const Part = z.strictObject({ pid: z.int().min(1), port: z.int().min(1).max(65535) });

/** The state file of a running edge: nginx in front, one redis-server, the server instances. */
export const EdgeStateSchema = z.strictObject({
  nginx: Part,
  redis: Part,
  instances: z.array(Part).min(1),
});
export type EdgeState = z.output<typeof EdgeStateSchema>;

/** The state file's name in the edge's folder (EDGE_DIR, default `.edge`). */
export const EDGE_STATE_FILE = 'state.json';
