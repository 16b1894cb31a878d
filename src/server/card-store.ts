// The link-preview cards kept on disk (CARD_CACHE_DIR): one PNG per slug under a folder of the data
// version, written once (write-file-atomic: a temporary sibling renamed into place, so a reader sees
// a whole card or none), bounded in bytes, and the folders of other data versions removed when a
// release opens its store. A folder that cannot be written leaves the cards to the memory cache.
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Disk for cards by default: 512 MiB (about 39 KB a card: 7,374 cards take about 285 MB). */
export const DEFAULT_CARD_CACHE_BYTES = 512 * 1024 * 1024;
/** The folder of one data version: its name is this prefix and the version, so nothing else in the folder is ever removed. */
const VERSION_PREFIX = 'cards-';
const CARD_FILE = /^[a-z0-9][a-z0-9-]*\.png$/;
/** The last 12 bytes of every whole PNG: the IEND chunk (length 0, type, CRC). */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const PNG_START = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Cards of one data version on disk. */
export interface CardStore {
  /** The folder the cards are kept in. */
  readonly dir: string;
  /** A kept card, or null when there is none (or only a damaged one). */
  read(slug: string): Promise<Buffer | null>;
  /** Keeps a card, unless the bound in bytes is reached; never throws. */
  write(slug: string, png: Buffer): Promise<void>;
  /** Bytes kept so far. */
  bytes(): number;
}

/** Whether `bytes` is a whole PNG: its signature, and IEND at its end. */
function wholePng(bytes: Buffer): boolean {
  return bytes.length > 20 && bytes.subarray(0, 8).equals(PNG_START) && bytes.subarray(bytes.length - 12).equals(PNG_END);
}

/** A data version as a folder name: anything but letters, digits, dot and dash becomes `_`. */
function versionFolder(dataVersion: string): string {
  return VERSION_PREFIX + dataVersion.replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 100);
}

/**
 * Opens (creating it) the folder of `dataVersion` under `root`, removes the card folders of other
 * versions and the leftovers of interrupted writes, and counts the bytes kept. Resolves null, after
 * one logged line, when the folder cannot be made or written.
 */
export async function openCardStore(root: string, dataVersion: string, maxBytes: number, log: (line: string) => void): Promise<CardStore | null> {
  const dir = path.join(root, versionFolder(dataVersion));
  let used = 0;
  try {
    await mkdir(dir, { recursive: true });
    for (const entry of await readdir(root)) {
      if (entry.startsWith(VERSION_PREFIX) && path.join(root, entry) !== dir) await rm(path.join(root, entry), { recursive: true, force: true });
    }
    for (const entry of await readdir(dir)) {
      const file = path.join(dir, entry);
      if (!CARD_FILE.test(entry)) await rm(file, { force: true });
      else used += (await stat(file)).size;
    }
  } catch (err) {
    log(`preview cards: not kept on disk (${root}: ${(err as NodeJS.ErrnoException).code ?? String(err)}); drawn again after a restart`);
    return null;
  }
  let full = false;
  return {
    dir,
    bytes: () => used,
    async read(slug) {
      try {
        const bytes = await readFile(path.join(dir, `${slug}.png`));
        return wholePng(bytes) ? bytes : null;
      } catch {
        return null;
      }
    },
    async write(slug, png) {
      if (used + png.length > maxBytes) {
        if (!full) log(`preview cards: ${dir} holds ${used} bytes, its bound (CARD_CACHE_MB); further cards are kept in memory only`);
        full = true;
        return;
      }
      used += png.length;
      try {
        // No fsync: a card is drawn again if it is lost, and a damaged one is never served (wholePng).
        await writeFileAtomic(path.join(dir, `${slug}.png`), png, { fsync: false, mode: 0o644 });
      } catch {
        used -= png.length;
      }
    },
  };
}
