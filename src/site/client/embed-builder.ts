// Browser script of the game page's embed builder: adds the option controls and the copy button to the
// server-rendered preview and code, then keeps preview iframe and embed code in step with the options.

import { WIDGET_LABELS, WIDGET_LANGS, widgetLang } from '../../routes/widget-i18n.ts';
import { DEFAULT_RADIUS, DEFAULT_WIDGET_OPTIONS, embedSnippet, normaliseBorder, normaliseRadius, RADIUS_MAX, type WidgetOptions, widgetSrc } from '../embed.ts';

/** The language choice: each language by its own name (fixed strings from the table, no data). */
const LANG_OPTIONS = WIDGET_LANGS.map((l) => `<option value="${l}"${l === 'en' ? ' selected' : ''} lang="${l}">${WIDGET_LABELS[l].name}</option>`).join('');

/** The controls (fixed markup, no data in it). */
const FORM_HTML =
  '<fieldset><legend>Widget options</legend>' +
  '<div><label for="eb-theme">Theme</label><select id="eb-theme" name="theme"><option value="light" selected>Light</option><option value="dark">Dark</option></select></div>' +
  '<div><label for="eb-border">Border colour</label><input id="eb-border" name="border" type="text" value="" placeholder="theme default" spellcheck="false" autocomplete="off" aria-describedby="eb-border-help"><small id="eb-border-help">Hex such as #d0d7de, <code>none</code>, or empty for the default</small></div>' +
  `<div><label for="eb-radius">Corner radius (px)</label><input id="eb-radius" name="radius" type="number" min="0" max="${RADIUS_MAX}" step="1" value="" placeholder="${DEFAULT_RADIUS}" aria-describedby="eb-radius-help"><small id="eb-radius-help">0 to ${RADIUS_MAX}, empty for ${DEFAULT_RADIUS}</small></div>` +
  `<div><label for="eb-lang">Language</label><select id="eb-lang" name="lang">${LANG_OPTIONS}</select></div>` +
  '</fieldset><p class="status" role="status" aria-live="polite" data-embed-error></p>';

const COPY_HTML = '<button type="button" data-embed-copy>Copy embed code</button><span role="status" aria-live="polite" data-embed-copy-status></span>';

/** The casinos the page offers for the widget's operator line: `[key, name]` pairs, or none when unreadable. */
function offeredOperators(root: HTMLElement): [string, string][] {
  try {
    const parsed: unknown = JSON.parse(root.dataset.operators ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string');
  } catch {
    return [];
  }
}

/** The operator choice, built with the DOM (the names are data): none first, then each casino by its name. */
function operatorField(offered: [string, string][]): HTMLDivElement {
  const div = document.createElement('div');
  const label = div.appendChild(document.createElement('label'));
  label.htmlFor = 'eb-operator';
  label.textContent = 'Casino line';
  const select = div.appendChild(document.createElement('select'));
  select.id = 'eb-operator';
  select.name = 'operator';
  select.setAttribute('aria-describedby', 'eb-operator-help');
  select.add(new Option('None', '', true, true));
  for (const [key, name] of offered) select.add(new Option(name, key));
  const help = div.appendChild(document.createElement('small'));
  help.id = 'eb-operator-help';
  help.textContent = "The build that casino's catalogue showed on the date it was pinned, not a live reading";
  return div;
}

/** The origin used in the embed code: this page's own origin (the registry serving it). */
function pageOrigin(): string {
  return location.origin;
}

/** Wires one embed builder element. */
export function initEmbedBuilder(root: HTMLElement): void {
  const slug = root.dataset.slug ?? '';
  const name = root.dataset.name ?? '';
  const version = root.dataset.version ?? '';
  const preview = root.querySelector<HTMLIFrameElement>('[data-embed-preview]')!;
  const snippet = root.querySelector<HTMLTextAreaElement>('[data-embed-snippet]')!;

  const form = document.createElement('form');
  form.dataset.embedForm = '';
  form.innerHTML = FORM_HTML;
  const offered = offeredOperators(root);
  if (offered.length > 0) form.querySelector('fieldset')!.append(operatorField(offered));
  root.prepend(form);
  const copyRow = document.createElement('div');
  copyRow.className = 'copy-row';
  copyRow.innerHTML = COPY_HTML;
  snippet.after(copyRow);

  const theme = form.elements.namedItem('theme') as HTMLSelectElement;
  const border = form.elements.namedItem('border') as HTMLInputElement;
  const radius = form.elements.namedItem('radius') as HTMLInputElement;
  const lang = form.elements.namedItem('lang') as HTMLSelectElement;
  const operator = form.elements.namedItem('operator') as HTMLSelectElement | null;
  const error = form.querySelector<HTMLElement>('[data-embed-error]')!;
  const copy = copyRow.querySelector<HTMLButtonElement>('[data-embed-copy]')!;
  const copyStatus = copyRow.querySelector<HTMLElement>('[data-embed-copy-status]')!;
  let current: WidgetOptions = { ...DEFAULT_WIDGET_OPTIONS };

  function update(): void {
    const b = normaliseBorder(border.value);
    const r = normaliseRadius(radius.value);
    border.setAttribute('aria-invalid', String(b === null));
    radius.setAttribute('aria-invalid', String(r === undefined));
    const problems: string[] = [];
    if (b === null) problems.push('Border: use a hex colour such as #d0d7de, none, or leave it empty.');
    if (r === undefined) problems.push(`Radius: use a whole number from 0 to ${RADIUS_MAX}, or leave it empty.`);
    error.textContent = problems.join(' ');
    // Invalid fields keep their last valid value, so the preview and the code always agree.
    current = {
      theme: theme.value === 'dark' ? 'dark' : 'light',
      border: b ?? current.border,
      radius: r === undefined ? current.radius : r,
      lang: widgetLang(lang.value),
      operator: operator?.value ?? '',
    };
    const src = widgetSrc(pageOrigin(), slug, current, version);
    if (preview.getAttribute('src') !== src) preview.setAttribute('src', src);
    snippet.value = embedSnippet(pageOrigin(), slug, name, current, version);
    copyStatus.textContent = '';
  }

  form.addEventListener('input', update);
  form.addEventListener('change', update);
  form.addEventListener('submit', (ev) => ev.preventDefault());

  copy.addEventListener('click', async () => {
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(snippet.value);
        copied = true;
      }
    } catch {
      copied = false;
    }
    if (!copied) {
      // Fallback: select the code so the reader can copy it with the keyboard.
      snippet.focus();
      snippet.select();
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
    }
    copyStatus.textContent = copied ? 'Copied.' : 'Selected: press Ctrl+C (or ⌘C) to copy.';
  });

  root.dataset.ready = 'true';
  update();
}

for (const el of document.querySelectorAll<HTMLElement>('[data-embed-builder]')) initEmbedBuilder(el);
