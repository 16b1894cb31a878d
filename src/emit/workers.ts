// Worker threads of the build: one helper that runs a worker to its single answer, and the list
// bundle's compile (src/emit/list/worker.ts). The file writer is in staging.ts.
import { Worker } from 'node:worker_threads';

/**
 * Runs the worker `file` with `workerData` and resolves to the one message it posts before it
 * exits; rejects with its error, or when it exits without posting (`what` names it in the message).
 */
export function runWorker<T>(file: URL, workerData: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData });
    let result: { value: T } | undefined;
    worker.once('message', (value: T) => (result = { value }));
    worker.once('error', reject);
    worker.once('exit', (code) => (result !== undefined ? resolve(result.value) : reject(new Error(`${what} stopped (exit code ${code}) before it finished`))));
  });
}

/**
 * Compiles the list bundle for the registry bundle whose file holds exactly `bundleText`, in a
 * worker thread (src/emit/list/worker.ts at `workerFile`, which the caller resolves: the
 * build knows the project root); resolves to the file's bytes, the same as `listBundleBytes`'s.
 */
export function compileListBundleInWorker(bundleText: string, workerFile: URL): Promise<Uint8Array> {
  return runWorker<Uint8Array>(workerFile, bundleText, 'the list bundle worker');
}
