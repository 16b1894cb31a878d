// Browser script of the compare page: reads the games from ?slugs=, fetches them in one batch lookup,
// renders them side by side, and adds games from a search. Text goes in with DOM methods; the ladder
// charts are the site's own SVG strings (site/charts.ts), every text in them escaped.
import { paths } from '../../routes/paths.ts';
import { ladderChart, ladderFloor } from '../charts.ts';
import { COMPARE_MAX, COMPARE_ROWS, type CompareRecord, compareState, compareUrl } from '../compare.ts';
import { formatRtp, formatSourceKind, hostOf } from '../format.ts';

const DEBOUNCE_MS = 250;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<{ ok: true; body: T } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal });
    if (res.status === 429) return { ok: false, message: 'Too many requests from your address today; please try again later.' };
    if (!res.ok) return { ok: false, message: `The registry answered ${res.status}.` };
    return { ok: true, body: (await res.json()) as T };
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return { ok: false, message: 'The registry could not be reached.' };
  }
}

/** Wires the compare page. */
export function initCompare(root: HTMLElement): void {
  const status = root.querySelector<HTMLElement>('[data-compare-status]')!;
  const region = root.querySelector<HTMLElement>('[data-compare-region]')!;
  const table = root.querySelector<HTMLTableElement>('[data-compare-table]')!;
  const input = root.querySelector<HTMLInputElement>('[data-compare-q]')!;
  const suggestions = root.querySelector<HTMLElement>('[data-compare-suggestions]')!;
  const addForm = root.querySelector<HTMLFormElement>('[data-compare-add]')!;
  let slugs: string[] = [];
  let records: CompareRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | undefined;

  function setSlugs(next: string[], push: boolean): void {
    slugs = next;
    const url = compareUrl(slugs);
    if (url !== `${location.pathname}${location.search}`) history[push ? 'pushState' : 'replaceState'](null, '', url);
    void load();
  }

  function render(notes: string[]): void {
    const head = el('tr');
    head.append(el('td'));
    records.forEach((r) => {
      const th = el('th');
      th.scope = 'col';
      const a = el('a', r.canonical_name);
      a.href = paths.gamePage(r.canonical_slug);
      const p = el('a', r.provider_display, 'meta');
      p.href = paths.providerPage(r.provider);
      const remove = el('button', 'Remove', 'secondary small');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove ${r.canonical_name} from the comparison`);
      remove.addEventListener('click', () => {
        setSlugs(
          slugs.filter((s) => s !== r.canonical_slug),
          true,
        );
        input.focus();
      });
      th.append(a, el('br'), p, el('br'), remove);
      head.append(th);
    });
    const body = el('tbody');
    const row = (label: string, cells: Array<Node | string>) => {
      const tr = el('tr');
      const th = el('th', label);
      th.scope = 'row';
      tr.append(th);
      for (const c of cells) {
        const td = el('td');
        td.append(c);
        tr.append(td);
      }
      body.append(tr);
    };
    for (const def of COMPARE_ROWS) {
      const top = def.highest !== undefined && records.length > 1 ? Math.max(...records.map(def.highest)) : null;
      row(
        def.label,
        records.map((r) => (top !== null && def.highest!(r) === top ? `${def.text(r)} (highest)` : def.text(r))),
      );
    }
    const floor = ladderFloor(Math.min(...records.map((r) => r.rtp_min))); // one scale for every ladder
    row(
      'RTP ladder',
      records.map((r, i) => {
        const t = document.createElement('template');
        t.innerHTML = ladderChart(`ladder-${i}`, r.variants as never, r.stated_rtp, floor);
        return t.content;
      }),
    );
    row(
      'Sources',
      records.map((r) => {
        const ul = el('ul', undefined, 'plain');
        for (const s of r.sources) {
          // A catalogue citing the provider's page says so: the page was not checked here.
          const li = el('li', `${formatSourceKind(s.kind)}${s.via === null ? '' : ` (${s.via})`}: `);
          const a = el('a', hostOf(s.url));
          if (/^https?:\/\//i.test(s.url)) a.href = s.url;
          a.rel = 'nofollow noopener';
          li.append(a, ` (${formatRtp(s.stated_rtp)})`);
          ul.append(li);
        }
        return ul;
      }),
    );
    const thead = el('thead');
    thead.append(head);
    table.replaceChildren(el('caption', `Comparison of ${records.map((r) => r.canonical_name).join(', ')}`, 'sr-only'), thead, body);
    region.hidden = records.length === 0;
    const full = slugs.length >= COMPARE_MAX;
    input.disabled = full;
    input.placeholder = full ? `${COMPARE_MAX} games at most: remove one to add another` : 'e.g. book of dead';
    const lead = records.length === 0 ? 'Add games to compare them side by side.' : `Comparing ${records.length} game${records.length === 1 ? '' : 's'}.`;
    status.textContent = [lead, ...notes].join(' ');
  }

  async function load(): Promise<void> {
    if (slugs.length === 0) {
      records = [];
      render([]);
      return;
    }
    status.textContent = 'Loading…';
    const got = await getJson<{ items: CompareRecord[]; meta: { missing: string[] } }>(`${paths.list}?slugs=${slugs.join(',')}`);
    if (!got.ok) {
      status.textContent = `Could not load the games: ${got.message}`;
      return;
    }
    records = got.body.items;
    const missing = got.body.meta.missing;
    // Unknown games leave the list (the status names them), so their places are free again.
    if (missing.length > 0) {
      slugs = records.map((r) => r.canonical_slug);
      history.replaceState(null, '', compareUrl(slugs));
    }
    render(missing.length > 0 ? [`Not in the registry: ${missing.join(', ')}.`] : []);
  }

  async function suggest(): Promise<void> {
    const q = input.value.trim();
    inflight?.abort();
    if (q === '') {
      suggestions.replaceChildren();
      return;
    }
    const ctrl = new AbortController();
    inflight = ctrl;
    try {
      const got = await getJson<{ items: CompareRecord[] }>(
        `${paths.list}?${new URLSearchParams({ q: q.slice(0, 200), sort: 'relevance', limit: '8', fields: 'canonical_slug,canonical_name,provider_display,stated_rtp' })}`,
        ctrl.signal,
      );
      if (ctrl !== inflight) return;
      if (!got.ok) {
        suggestions.replaceChildren(el('li', got.message));
        return;
      }
      const items = got.body.items.filter((r) => !slugs.includes(r.canonical_slug)).slice(0, 6);
      if (items.length === 0) {
        suggestions.replaceChildren(el('li', 'No game matches.'));
        return;
      }
      suggestions.replaceChildren(
        ...items.map((r) => {
          const li = el('li');
          const b = el('button', `Add ${r.canonical_name}`, 'secondary');
          b.type = 'button';
          b.append(el('span', ` · ${r.provider_display} · ${formatRtp(r.stated_rtp)}`, 'meta'));
          b.addEventListener('click', () => {
            input.value = '';
            suggestions.replaceChildren();
            setSlugs([...slugs, r.canonical_slug].slice(0, COMPARE_MAX), true);
            input.focus();
          });
          li.append(b);
          return li;
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void suggest(), DEBOUNCE_MS);
  });
  addForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    clearTimeout(timer);
    void suggest();
  });
  window.addEventListener('popstate', () => {
    slugs = compareState(location.search).slugs;
    void load();
  });

  const start = compareState(location.search);
  const notes: string[] = [];
  if (start.dropped > 0) notes.push(`Only the first ${COMPARE_MAX} games are compared; ${start.dropped} more left out.`);
  if (start.invalid > 0) notes.push(`${start.invalid} value${start.invalid === 1 ? ' is' : 's are'} not a game's slug and left out.`);
  root.dataset.ready = 'true';
  slugs = start.slugs;
  if (compareUrl(slugs) !== `${location.pathname}${location.search}` && location.search !== '') history.replaceState(null, '', compareUrl(slugs));
  if (slugs.length === 0) {
    records = [];
    render(notes);
    return;
  }
  void load().then(() => {
    if (notes.length > 0) status.textContent = `${status.textContent} ${notes.join(' ')}`;
  });
}

const root = document.querySelector<HTMLElement>('[data-compare]');
if (root) initCompare(root);
