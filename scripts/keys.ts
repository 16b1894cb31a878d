// API keys of the Pro tier preview, issued by hand (docs/production.md):
//   npm run keys:issue -- --owner <site or company> --use <intended use> --daily <expected volume>
//   npm run keys:revoke -- <id>
//   npm run keys:list
// The keys file (RTP_KEYS_FILE, default ./var/keys.json) keeps only SHA-256 hashes; a new key is
// printed once by keys:issue and can never be shown again.
import { findKey, formatKeyList, issueKey, keysFilePath, readKeysFile, revokeKey, withKeysLock, writeKeysFile } from '../src/keys/file.ts';
import { maskKey } from '../src/keys/keys.ts';

const USAGE = [
  'usage: npm run keys:issue -- --owner <site or company> --use <intended use> --daily <expected requests per day>',
  '       npm run keys:revoke -- <key id>',
  '       npm run keys:list',
].join('\n');

class UsageError extends Error {}

function options(argv: readonly string[], names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : '';
    if (!names.includes(name)) throw new UsageError(`unknown argument ${JSON.stringify(a)}`);
    const value = eq > 0 ? a.slice(eq + 1) : argv[++k];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name in out) throw new UsageError(`--${name} given twice`);
    out[name] = value;
  }
  return out;
}

async function issue(file: string, argv: readonly string[]): Promise<void> {
  const o = options(argv, ['owner', 'use', 'daily']);
  const missing = ['owner', 'use', 'daily'].filter((n) => o[n] === undefined || o[n]!.trim() === '');
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
  if (!/^[1-9][0-9]{0,9}$/.test(o.daily!) || Number(o.daily) > 1_000_000_000)
    throw new UsageError(`--daily must be a whole number of requests per day from 1 to 1000000000 (got ${JSON.stringify(o.daily)})`);
  if (o.owner!.trim().length > 200) throw new UsageError('--owner is longer than 200 characters');
  if (o.use!.trim().length > 500) throw new UsageError('--use is longer than 500 characters');
  const { key, record } = await withKeysLock(file, async () => {
    const issued = issueKey(await readKeysFile(file), { owner: o.owner!, use: o.use!, daily: Number(o.daily) }, new Date());
    await writeKeysFile(file, issued.data);
    return issued;
  });
  process.stderr.write(
    `Issued key ${maskKey(record.id)} (id ${record.id}) to ${record.owner}; stored as a SHA-256 hash in ${file}.\nThe key is printed below once; it cannot be shown again:\n`,
  );
  process.stdout.write(`${key}\n`);
}

async function revoke(file: string, argv: readonly string[]): Promise<void> {
  if (argv.length !== 1) throw new UsageError('keys:revoke takes exactly one key id');
  const now = new Date();
  const message = await withKeysLock(file, async () => {
    const data = await readKeysFile(file);
    const record = findKey(data, argv[0]!);
    if (record === undefined) throw new Error(`no key with id ${JSON.stringify(argv[0])} in ${file} (see npm run keys:list)`);
    if (record.revoked_at !== null) return `key ${maskKey(record.id)} was already revoked at ${record.revoked_at}`;
    await writeKeysFile(file, revokeKey(data, record.id, now));
    return `revoked key ${maskKey(record.id)} of ${record.owner}; running servers stop accepting it when they notice the change (or at once on SIGHUP)`;
  });
  console.log(message);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const file = keysFilePath();
  try {
    if (command === 'issue') await issue(file, rest);
    else if (command === 'revoke') await revoke(file, rest);
    else if (command === 'list') {
      if (rest.length > 0) throw new UsageError('keys:list takes no arguments');
      process.stdout.write(formatKeyList(await readKeysFile(file)));
    } else throw new UsageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) console.error(`keys: ${err.message}\n${USAGE}`);
    else console.error(`keys: ${err instanceof Error ? err.message : String(err)}`);
    return err instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main();
