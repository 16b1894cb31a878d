// Setup file of the `unit` Vitest project: unit tests are pure and in-process, so starting a
// child process or opening a socket throws NoIoError (worker threads stay allowed).
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

/** What a unit test gets when it starts a process or opens a socket: such a test belongs in tests/integration. */
export class NoIoError extends Error {
  override readonly name = 'NoIoError';
  readonly code = 'ERR_UNIT_NO_IO';
  constructor(what: string) {
    super(`${what} in a unit test: unit tests start no process and open no socket (move the test to tests/integration)`);
  }
}

function refuse(target: object, names: readonly string[], label: string): void {
  for (const name of names) {
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function refused(): never {
        throw new NoIoError(`${label}.${name}()`);
      },
    });
  }
}

refuse(childProcess, ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'], 'child_process');
refuse(net, ['connect', 'createConnection'], 'net');
refuse(net.Server.prototype, ['listen'], 'net.Server');
refuse(net.Socket.prototype, ['connect'], 'net.Socket');
refuse(tls, ['connect'], 'tls');
refuse(dgram.Socket.prototype, ['bind', 'send'], 'dgram.Socket');
for (const [mod, label] of [
  [http, 'http'],
  [https, 'https'],
] as const)
  refuse(mod, ['request', 'get'], label);
// The ESM named exports (`import { spawn } from 'node:child_process'`) are copies: update them too.
syncBuiltinESMExports();
