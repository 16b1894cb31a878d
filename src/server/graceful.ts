// Graceful shutdown for a node:http server: stop accepting, let every response already received
// finish (pipelined ones included), close keep-alive connections once they have nothing left to
// send, force the rest after a timeout.
//
// Node's own closeIdleConnections() (also called by server.close()) destroys a connection whose
// current response has ended but is still being flushed, cutting it short; it is replaced here by
// one that counts unfinished responses per socket and half-closes a socket only at zero.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Graceful {
  /** Responses not yet finished. */
  readonly inFlight: number;
  /** Connections tracked (open ones only). */
  readonly sockets: number;
  /** Stops accepting, finishes in-flight responses, then calls `done`; forces closing after `timeoutMs`. */
  shutdown(timeoutMs: number, done: () => void, onForce?: () => void): void;
}

/** Wraps `listener` so every response is tracked; call before any request arrives. */
export function makeGraceful(server: Server, listener: (req: IncomingMessage, res: ServerResponse) => void): Graceful {
  const pending = new Map<Socket, number>();
  let inFlight = 0;
  let closing = false;

  const release = (socket: Socket) => {
    // end(), not destroy(): a FIN after the queued bytes, where a reset could lose the client's unread data.
    if (closing && (pending.get(socket) ?? 0) === 0 && !socket.destroyed) socket.end();
  };

  server.on('connection', (socket: Socket) => {
    pending.set(socket, 0);
    socket.once('close', () => pending.delete(socket));
    if (closing) socket.end();
  });

  // One shared handler ('close' comes once per response, so `on` needs no once-wrapper). A response
  // aborted by the client closes after its socket did: the socket is gone from the map then and
  // must not be put back (it would never leave again).
  function onResponseClose(this: ServerResponse): void {
    const socket = this.req.socket;
    inFlight--;
    const count = pending.get(socket);
    if (count === undefined) return;
    pending.set(socket, count - 1);
    release(socket);
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (!socket.destroyed) pending.set(socket, (pending.get(socket) ?? 0) + 1);
    inFlight++;
    if (closing) res.shouldKeepAlive = false;
    res.on('close', onResponseClose);
    listener(req, res);
  });

  server.closeIdleConnections = () => {
    for (const socket of pending.keys()) release(socket);
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get sockets() {
      return pending.size;
    },
    shutdown(timeoutMs, done, onForce) {
      if (closing) return;
      closing = true;
      server.close(() => done());
      server.closeIdleConnections();
      setTimeout(() => {
        onForce?.();
        for (const socket of pending.keys()) socket.destroy();
      }, timeoutMs).unref();
    },
  };
}
