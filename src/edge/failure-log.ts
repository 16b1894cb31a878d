// The edge's log of requests an instance failed: nginx sends one syslog line per such request
// (nginx.conf's `rtp_failed` format, the path without its query string) to a loopback UDP port the
// edge listens on, and the edge writes it to its output. nginx's own stderr is a socket here, which
// it cannot open as a log file.
import dgram from 'node:dgram';

/** A syslog header as nginx writes it without a host name: `<PRI>Mmm dd hh:mm:ss `. */
const SYSLOG_HEADER = /^<\d{1,3}>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d /;

/** The longest line written (nginx's syslog lines are shorter). */
const MAX_LINE_BYTES = 4096;

export interface FailureLog {
  /** The `access_log` directive sending nginx's `format` lines here (written into edge-site.conf). */
  directive: string;
  close(): Promise<void>;
}

/** Listens on a free loopback UDP port for nginx's lines in `format` (logged when `condition` is not 0). */
export function openFailureLog(format: string, condition: string, output: NodeJS.WritableStream): Promise<FailureLog> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message) => {
    // One datagram is one line (nginx's are at most about 2 KiB): nothing accumulates, and a longer
    // one, which nginx never sends, is cut.
    const line = message
      .toString('utf8', 0, Math.min(message.length, MAX_LINE_BYTES))
      .replace(SYSLOG_HEADER, '')
      .replace(/[\r\n]+/g, ' ');
    output.write(`${line}\n`);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.off('error', reject);
      // A line lost is a line lost: the log never stops the edge.
      socket.on('error', () => {});
      const { port } = socket.address();
      resolve({
        directive: `access_log syslog:server=127.0.0.1:${port},tag=edge,nohostname ${format} if=${condition};`,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
