// The benchmark's context: machine (CPU, cores, memory), Node version, date and git commit.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Environment {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
  commit: string;
}

/** Short commit hash, with "+dirty" when the work tree has changes; "unknown" outside git. */
export function gitCommit(cwd: string): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', timeout: 10_000 }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8', timeout: 30_000 });
    return status.trim().length > 0 ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** Reads the machine description (call before the benchmark writes anything into the tree). */
export function environment(cwd: string, now = new Date()): Environment {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: now.toISOString(),
    commit: gitCommit(cwd),
  };
}
