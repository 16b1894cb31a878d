// The unit project's guard (tests/helpers/no-io.ts) is active: starting a process or opening a socket throws NoIoError.
import childProcess, { exec, execFile, execFileSync, execSync, fork, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net, { connect, createConnection, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NoIoError } from '../helpers/no-io.ts';

describe('a unit test', () => {
  it('cannot start a child process, through the named exports or the module object', () => {
    const node = process.execPath;
    for (const start of [
      () => spawn(node),
      () => spawnSync(node),
      () => execFile(node),
      () => execFileSync(node),
      () => exec('true'),
      () => execSync('true'),
      () => fork('x.js'),
      () => childProcess.spawn(node),
    ]) {
      expect(start).toThrow(NoIoError);
    }
  });

  it('cannot listen on a port', () => {
    const server = createServer();
    expect(() => server.listen(0, '127.0.0.1')).toThrow(NoIoError);
    expect(() => http.createServer().listen(0)).toThrow(NoIoError);
    expect(server.listening).toBe(false);
  });

  it('cannot connect out: net, http, https and fetch', async () => {
    expect(() => connect(9, '127.0.0.1')).toThrow(NoIoError);
    expect(() => createConnection({ port: 9 })).toThrow(NoIoError);
    expect(() => new net.Socket().connect(9, '127.0.0.1')).toThrow(NoIoError);
    expect(() => http.request('http://127.0.0.1:9/')).toThrow(NoIoError);
    expect(() => http.get('http://127.0.0.1:9/')).toThrow(NoIoError);
    expect(() => https.request('https://127.0.0.1:9/')).toThrow(NoIoError);
    const failed = await fetch('http://127.0.0.1:8/').then(
      () => null,
      (e: unknown) => e,
    );
    expect((failed as Error & { cause?: unknown }).cause).toBeInstanceOf(NoIoError);
  });

  it('names the rule in the error', () => {
    expect(() => spawnSync(process.execPath)).toThrow(/unit tests start no process and open no socket/);
    try {
      spawnSync(process.execPath);
    } catch (e) {
      expect((e as NoIoError).code).toBe('ERR_UNIT_NO_IO');
    }
  });
});
