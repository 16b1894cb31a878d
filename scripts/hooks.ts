// Change notifications at release, managed by hand (docs/notifications.md):
//   npm run hooks -- add <url> [--provider p[,q]] [--games a,b] [--allow-private]   prints the secret once
//   npm run hooks -- remove <id>
//   npm run hooks -- list
//   npm run hooks -- deliver        sends the outbox now (npm run release starts this detached)
// The subscribers file (RTP_HOOKS_DIR, default ./var/hooks) keeps only a SHA-256 of each secret.
import { mkdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { deliverAll, deliverySettings } from '../src/hooks/deliver.ts';
import {
  addSubscriber,
  formatSubscriberList,
  hooksDir,
  readSubscribers,
  removeSubscriber,
  SubscriberInputError,
  watching,
  withSubscribersLock,
  writeSubscribers,
} from '../src/hooks/subscribers.ts';

const USAGE = [
  'usage: npm run hooks -- add <url> [--provider <provider>[,<provider>…]] [--games <slug>[,<slug>…]] [--allow-private]',
  '         (--allow-private: allow a loopback, private or link-local target, for a local receiver while testing)',
  '       npm run hooks -- remove <id>',
  '       npm run hooks -- list',
  '       npm run hooks -- deliver',
].join('\n');

class UsageError extends Error {}

const csv = (values: string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

async function add(dir: string, argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { provider: { type: 'string', multiple: true }, games: { type: 'string', multiple: true }, 'allow-private': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError('hooks add takes exactly one URL');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let added;
  try {
    added = await withSubscribersLock(dir, async () => {
      const result = addSubscriber(
        await readSubscribers(dir),
        {
          url: parsed.positionals[0]!,
          providers: csv(parsed.values.provider),
          games: csv(parsed.values.games),
          allowPrivate: parsed.values['allow-private'] === true,
        },
        new Date(),
      );
      await writeSubscribers(dir, result.data);
      return result;
    });
  } catch (err) {
    throw err instanceof SubscriberInputError ? new UsageError(err.message) : err;
  }
  const { secret, record } = added;
  process.stderr.write(
    `Added subscriber ${record.id} (${record.url}${record.allow_private === true ? ', a private target allowed' : ''}), watching ${watching(record)}; its secret is stored as a SHA-256 hash in ${dir}.\n` +
      'Deliveries carry X-RTP-Signature-256: sha256=HMAC-SHA256(key = SHA-256(secret), body) (docs/notifications.md).\n' +
      'The secret is printed below once; it cannot be shown again:\n',
  );
  process.stdout.write(`${secret}\n`);
}

async function remove(dir: string, argv: string[]): Promise<void> {
  if (argv.length !== 1) throw new UsageError('hooks remove takes exactly one subscriber id');
  const message = await withSubscribersLock(dir, async () => {
    const data = await readSubscribers(dir);
    const next = removeSubscriber(data, argv[0]!.trim());
    if (next === null) throw new Error(`no subscriber with id ${JSON.stringify(argv[0])} in ${dir} (see npm run hooks -- list)`);
    await writeSubscribers(dir, next);
    return `removed subscriber ${argv[0]}; deliveries still queued for it are dropped`;
  });
  console.log(message);
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const dir = hooksDir();
  try {
    if (command === 'add') await add(dir, rest);
    else if (command === 'remove') await remove(dir, rest);
    else if (command === 'list') {
      if (rest.length > 0) throw new UsageError('hooks list takes no arguments');
      process.stdout.write(formatSubscriberList(await readSubscribers(dir)));
    } else if (command === 'deliver') {
      if (rest.length > 0) throw new UsageError('hooks deliver takes no arguments');
      const settings = deliverySettings();
      await deliverAll({ dir, settings, log: (line) => console.log(`${new Date().toISOString()} ${line}`) });
    } else throw new UsageError(command === undefined ? 'missing command' : `unknown command ${JSON.stringify(command)}`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) console.error(`hooks: ${err.message}\n${USAGE}`);
    else console.error(`hooks: ${err instanceof Error ? err.message : String(err)}`);
    return err instanceof UsageError ? 2 : 1;
  }
}

process.exitCode = await main();
