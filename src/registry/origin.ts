// Where a source's figures come from in the end (its `origin`), for telling independent sources
// apart: two files copied from one site are one origin, and a hand-checked row's origin is the
// evidence it names (docs/data-model.md, "Evidence labels"). One table, by pinned file.
import type { SourceEntry } from '../schemas/authoring.ts';

/** The origin of each pinned file's lines (data/sources/README.md says what each file is). */
export const FILE_ORIGINS: Readonly<Record<string, string>> = {
  'sources/igt-slots.jsonl': 'the iGaming Tools slot API (i-gaming.tools)',
  'sources/slotfolio.jsonl': 'the Slotfolio catalogue',
  'sources/calcasi.jsonl': 'the calcasi affiliate site',
  // Neither cites a page; the overlay table's images come from review sites and the other is a review
  // site's scrape: nothing shows the two are independent, so they count as one origin.
  'sources/overlay-slots.jsonl': 'scrapes of slot review sites',
  'sources/slotcatalog.jsonl': 'scrapes of slot review sites',
  'sources/operator-711nl.jsonl': 'a Dutch-licensed casino (711.nl)',
};

/** A hand-checked row's origin, by the host of the evidence it names. */
const EVIDENCE_ORIGINS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^https:\/\/github\.com\/Pr0ject2\/slotfolio\//i, FILE_ORIGINS['sources/slotfolio.jsonl']!],
  [/^https?:\/\/(?:www\.)?i-gaming\.tools\//i, FILE_ORIGINS['sources/igt-slots.jsonl']!],
  [/^https:\/\/github\.com\/igamingtools\//i, FILE_ORIGINS['sources/igt-slots.jsonl']!],
];

/**
 * The origin of a source: a provider page read here is its own page's host; a hand-checked row's is
 * the evidence it names (the Slotfolio catalogue, the slot API, else the review site's host); a
 * pinned file's is FILE_ORIGINS's, else the file itself.
 */
export function originOf(s: Pick<SourceEntry, 'kind' | 'url' | 'file'>): string {
  if (s.kind === 'provider') return `the provider's page (${new URL(s.url).hostname})`;
  if (s.kind === 'hand_checked') {
    const named = EVIDENCE_ORIGINS.find(([re]) => re.test(s.url));
    return named !== undefined ? named[1] : `the review site ${new URL(s.url).hostname.replace(/^www\./, '')}`;
  }
  return FILE_ORIGINS[s.file] ?? s.file;
}
