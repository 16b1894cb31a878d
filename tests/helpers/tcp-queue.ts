// The kernel's view of a loopback TCP connection (Linux, /proc/net/tcp): how many bytes sit in
// each end's queues, to show from outside a process whether it reads a connection.
import { readFileSync } from 'node:fs';

/** `127.0.3.1:4000` as /proc/net/tcp writes it: the address's bytes reversed, then the port, in hex. */
function procAddress(address: string, port: number): string {
  const bytes = address.split('.').map((b) => Number(b).toString(16).padStart(2, '0').toUpperCase());
  return `${bytes.reverse().join('')}:${port.toString(16).padStart(4, '0').toUpperCase()}`;
}

/**
 * Bytes received on the end of a loopback connection at `local` from `remote` that its process has
 * not read yet (the socket's rx_queue), or null when no such connection is open.
 */
export function unreadBytes(local: { address: string; port: number }, remote: { address: string; port: number }): number | null {
  const l = procAddress(local.address, local.port);
  const r = procAddress(remote.address, remote.port);
  for (const line of readFileSync('/proc/net/tcp', 'latin1').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1] === l && f[2] === r) return Number.parseInt(f[4]!.split(':')[1]!, 16);
  }
  return null;
}
