// "Report a correction" on game pages: a URL template set at build time (CORRECTIONS_URL, e.g. a
// repository's new-issue form) filled per game with a prefilled title and body naming the game, its
// figures and its sources. Without CORRECTIONS_URL no link is rendered.
import type { GameRecord } from '../schemas/game-record.ts';
import { formatRtp, formatSourceKind, formatVariantKind } from './format.ts';

/** The placeholders a template may use; each is replaced by its value, percent-encoded. */
export const CORRECTION_FIELDS = ['title', 'body', 'slug', 'name', 'provider', 'page_url', 'data_version'] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];

/** Sources listed in a prefilled body at most (a browser or a forge refuses URLs of many kilobytes). */
export const CORRECTION_MAX_SOURCES = 8;

const EXAMPLE = 'https://github.com/OWNER/REPO/issues/new?title={title}&body={body}';
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * The corrections URL template in force: env CORRECTIONS_URL, or null when unset or empty. Throws,
 * naming the fix, when it is not an absolute http(s) URL or uses an unknown placeholder.
 */
export function correctionsTemplate(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.CORRECTIONS_URL?.trim() ?? '';
  if (raw === '') return null;
  const unknown = [...raw.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(CORRECTION_FIELDS as readonly string[]).includes(name));
  let url: URL | null = null;
  try {
    url = new URL(raw.replace(PLACEHOLDER, 'x'));
  } catch {
    url = null;
  }
  const problems: string[] = [];
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) problems.push('it is not an absolute http(s) URL');
  if (unknown.length > 0)
    problems.push(`it uses unknown placeholder(s) ${unknown.map((u) => `{${u}}`).join(', ')} (known: ${CORRECTION_FIELDS.map((f) => `{${f}}`).join(', ')})`);
  if (problems.length > 0)
    throw new Error(
      `CORRECTIONS_URL is invalid: ${problems.join('; ')}. Set it to a URL template such as ${EXAMPLE}, or leave it unset to render no correction link.`,
    );
  return raw;
}

/** The prefilled issue: a title and a plain-text body with the game, its figures, its sources and what to fill in. */
export function correctionText(r: GameRecord, pageUrl: string, dataVersion: string): { title: string; body: string } {
  const variants = r.variants
    .slice()
    .reverse()
    .map((v) => `- ${formatRtp(v.rtp)} (${formatVariantKind(v.kind, v.jurisdiction)})`);
  const shown = r.sources.slice(0, CORRECTION_MAX_SOURCES).map((s) => `- ${formatSourceKind(s.kind)}: ${s.url} states ${formatRtp(s.stated_rtp)}`);
  const more = r.sources.length > CORRECTION_MAX_SOURCES ? [`- and ${r.sources.length - CORRECTION_MAX_SOURCES} more on the page`] : [];
  const body = [
    `Game: ${r.canonical_name} (${r.provider_display}), slug ${r.canonical_slug}`,
    `Page: ${pageUrl}`,
    `Data version: ${dataVersion}`,
    `Stated RTP: ${formatRtp(r.stated_rtp)}`,
    'RTP variants:',
    ...variants,
    'Sources:',
    ...shown,
    ...more,
    '',
    'What is wrong, and the source (a URL) that states the correct figure:',
    '',
  ].join('\n');
  return { title: `Correction: ${r.canonical_name} (${r.provider_display}) RTP`, body };
}

/** The template filled for one game (every value percent-encoded, so it cannot add parameters). */
export function correctionUrl(template: string, r: GameRecord, pageUrl: string, dataVersion: string): string {
  const { title, body } = correctionText(r, pageUrl, dataVersion);
  const values: Record<CorrectionField, string> = {
    title,
    body,
    slug: r.canonical_slug,
    name: r.canonical_name,
    provider: r.provider,
    page_url: pageUrl,
    data_version: dataVersion,
  };
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? encodeURIComponent(values[name as CorrectionField]) : whole));
}
