// The widget's languages (`lang=` on /widget/rtp/{slug}): its labels and number format per locale.
// English is rendered into every widget page; the inline script (widget-assets.ts) swaps in the
// others from this table, so a language costs no extra request. No Node imports: the embed
// builder's browser script reads the language list too.

export const WIDGET_LANGS = ['en', 'de', 'es', 'pt', 'fr', 'it'] as const;
export type WidgetLang = (typeof WIDGET_LANGS)[number];

/** Everything the widget writes in words, and how it writes a percentage and a date. */
export interface WidgetLabels {
  /** The language's own name, for the embed builder's choice. */
  name: string;
  stated: string;
  variants: string;
  /** "1 variant" / "4 variants": the word after the count, singular and plural. */
  variant: [one: string, other: string];
  noOther: string;
  verified: string;
  /** How much evidence stands behind the stated RTP, per confidence level (the record's `confidence`), in a short phrase. */
  confidence: { verified: string; corroborated: string; single_source: string };
  source: string;
  /**
   * The operator line (`operator=<key>`): `{display}{sep}{figure} ({build}) · {pinned} {date}`, what that
   * casino's catalogue showed on the date its source was pinned (`pinned` names it so), not a live reading.
   */
  operator: { sep: string; top: string; lower: string; higher: string; pinned: string };
  /** Decimal separator and what follows the number (CLDR percent pattern: `#,##0 %` in German, French, Spanish). */
  decimal: string;
  suffix: string;
  /** Day, month and year order of the verified date: `iso` keeps 2026-11-21, `dmy` writes 21/11/2026 with `dateSep`. */
  date: 'iso' | 'dmy';
  dateSep: string;
}

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** Labels per language (English first: what every widget page holds before its script runs). */
export const WIDGET_LABELS: Readonly<Record<WidgetLang, WidgetLabels>> = {
  en: {
    name: 'English',
    stated: 'Stated RTP',
    variants: 'RTP variants',
    variant: ['variant', 'variants'],
    noOther: 'No other RTP version known',
    verified: 'Verified',
    confidence: { verified: 'Casino + 2nd source', corroborated: '2+ sources agree', single_source: 'Single source' },
    source: 'Source',
    operator: { sep: ': ', top: 'top build', lower: 'lower build', higher: 'above stated', pinned: 'catalogue as pinned' },
    decimal: '.',
    suffix: '%',
    date: 'iso',
    dateSep: '-',
  },
  de: {
    name: 'Deutsch',
    stated: 'RTP laut Anbieter',
    variants: 'RTP-Varianten',
    variant: ['Variante', 'Varianten'],
    noOther: 'Keine andere RTP-Version bekannt',
    verified: 'Geprüft',
    confidence: { verified: 'Casino + 2. Quelle', corroborated: '2+ Quellen stimmen überein', single_source: 'Nur eine Quelle' },
    source: 'Quelle',
    operator: { sep: ': ', top: 'höchste Version', lower: 'niedrigere Version', higher: 'über der Angabe', pinned: 'Katalogstand vom' },
    decimal: ',',
    suffix: `${NBSP}%`,
    date: 'dmy',
    dateSep: '.',
  },
  es: {
    name: 'Español',
    stated: 'RTP declarado',
    variants: 'Variantes de RTP',
    variant: ['variante', 'variantes'],
    noOther: 'No se conoce otra versión de RTP',
    verified: 'Verificado',
    confidence: { verified: 'Casino + 2.ª fuente', corroborated: '2+ fuentes coinciden', single_source: 'Una sola fuente' },
    source: 'Fuente',
    operator: { sep: ': ', top: 'versión máxima', lower: 'versión inferior', higher: 'sobre lo declarado', pinned: 'catálogo al' },
    decimal: ',',
    suffix: `${NBSP}%`,
    date: 'dmy',
    dateSep: '/',
  },
  pt: {
    name: 'Português',
    stated: 'RTP declarado',
    variants: 'Variantes de RTP',
    variant: ['variante', 'variantes'],
    noOther: 'Nenhuma outra versão de RTP conhecida',
    verified: 'Verificado',
    confidence: { verified: 'Casino + 2.ª fonte', corroborated: '2+ fontes concordam', single_source: 'Fonte única' },
    source: 'Fonte',
    operator: { sep: ': ', top: 'versão máxima', lower: 'versão inferior', higher: 'acima do declarado', pinned: 'catálogo em' },
    decimal: ',',
    suffix: '%',
    date: 'dmy',
    dateSep: '/',
  },
  fr: {
    name: 'Français',
    stated: 'RTP annoncé',
    variants: 'Variantes de RTP',
    variant: ['variante', 'variantes'],
    noOther: 'Aucune autre version de RTP connue',
    verified: 'Vérifié',
    confidence: { verified: 'Casino + 2e source', corroborated: '2+ sources concordent', single_source: 'Source unique' },
    source: 'Source',
    operator: { sep: `${NBSP}: `, top: 'version maximale', lower: 'version inférieure', higher: 'au-dessus de l’annonce', pinned: 'catalogue au' },
    decimal: ',',
    suffix: `${NNBSP}%`,
    date: 'dmy',
    dateSep: '/',
  },
  it: {
    name: 'Italiano',
    stated: 'RTP dichiarato',
    variants: 'Varianti RTP',
    variant: ['variante', 'varianti'],
    noOther: 'Nessun’altra versione RTP nota',
    verified: 'Verificato',
    confidence: { verified: 'Casinò + 2ª fonte', corroborated: '2+ fonti concordano', single_source: 'Fonte unica' },
    source: 'Fonte',
    operator: { sep: ': ', top: 'versione massima', lower: 'versione inferiore', higher: 'sopra il dichiarato', pinned: 'catalogo al' },
    decimal: ',',
    suffix: '%',
    date: 'dmy',
    dateSep: '/',
  },
};

/** The language a `lang` value asks for; anything unknown (or absent) is English. */
export function widgetLang(value: string | null | undefined): WidgetLang {
  return (WIDGET_LANGS as readonly string[]).includes(value ?? '') ? (value as WidgetLang) : 'en';
}
