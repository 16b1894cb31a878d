// Browser script of the search page: debounced search and filters over GET /api/rtp/list, with the
// state in the page's query string. Renders with DOM methods only (text is never parsed as HTML).
import { paths } from '../../routes/paths.ts';
import { formatGameType } from '../format.ts';
import { LIST_ITEM_SHOWN, type ListItemFields, listItemText, statusText } from '../list-item.ts';
import { DEFAULT_STATE, isDefaultState, OPERATOR_BUILD_LABELS, PAGE_SIZE, queryFromState, type SearchState, stateFromQuery } from '../search-params.ts';

interface ListResponse {
  meta: { total: number; filtered: number; has_more: boolean };
  facets: {
    providers: Array<{ provider: string; display: string; count: number }>;
    game_types: Array<{ game_type: string; count: number }>;
    operators: Array<{ operator: string; display: string; count: number }>;
    operator_builds: Array<{ operator_build: keyof typeof OPERATOR_BUILD_LABELS; count: number }>;
  };
  items: ListItemFields[];
}

interface ErrorResponse {
  statusCode: number;
  statusMessage: string;
  errors?: Array<{ param: string; message: string }>;
}

const DEBOUNCE_MS = 250;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderItems(list: HTMLElement, items: ListItemFields[]): void {
  const frag = document.createDocumentFragment();
  for (const r of items) {
    const t = listItemText(r);
    const li = el('li');
    const left = el('div');
    const a = el('a', 'name', t.name);
    a.href = t.href;
    left.append(a, el('div', 'meta', t.meta));
    const right = el('div', 'rtp', t.rtp);
    right.append(el('div', 'meta', 'stated'));
    li.append(left, right);
    frag.append(li);
  }
  list.replaceChildren(frag);
}

function fillSelect(select: HTMLSelectElement, allLabel: string, options: Array<{ value: string; label: string }>, selected: string): void {
  const frag = document.createDocumentFragment();
  const all = el('option', undefined, allLabel);
  all.value = '';
  frag.append(all);
  let found = selected === '';
  for (const o of options) {
    const opt = el('option', undefined, o.label);
    opt.value = o.value;
    if (o.value === selected) found = true;
    frag.append(opt);
  }
  if (!found) {
    // Keep a selected value that the facets no longer list (count 0), so the form still shows it.
    const opt = el('option', undefined, `${selected} (0)`);
    opt.value = selected;
    frag.append(opt);
  }
  select.replaceChildren(frag);
  select.value = selected;
}

/** Wires the search form, results, status and pager. */
export function initSearch(form: HTMLFormElement): void {
  const q = form.elements.namedItem('q') as HTMLInputElement;
  const provider = form.elements.namedItem('provider') as HTMLSelectElement;
  const gameType = form.elements.namedItem('game_type') as HTMLSelectElement;
  const operator = form.elements.namedItem('operator') as HTMLSelectElement;
  const operatorBuild = form.elements.namedItem('operator_build') as HTMLSelectElement;
  const sort = form.elements.namedItem('sort') as HTMLSelectElement;
  const hasVariants = form.elements.namedItem('has_variants') as HTMLInputElement;
  const list = document.querySelector<HTMLElement>('[data-search-results]')!;
  const status = document.querySelector<HTMLElement>('[data-search-status]')!;
  const pager = document.querySelector<HTMLElement>('[data-search-pager]')!;
  const prev = pager.querySelector<HTMLButtonElement>('[data-prev]')!;
  const next = pager.querySelector<HTMLButtonElement>('[data-next]')!;
  const nojs = document.querySelector<HTMLElement>('[data-search-nojs]');
  let state: SearchState = stateFromQuery(location.search);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: AbortController | undefined;
  let hasMore = next.dataset.hasMore === 'true';

  function setForm(s: SearchState): void {
    q.value = s.q;
    provider.value = s.provider;
    gameType.value = s.game_type;
    operator.value = s.operator;
    operatorBuild.value = s.operator_build;
    sort.value = s.sort;
    hasVariants.checked = s.has_variants;
  }

  function readForm(): SearchState {
    return {
      q: q.value,
      provider: provider.value,
      game_type: gameType.value,
      operator: operator.value,
      operator_build: operatorBuild.value,
      has_variants: hasVariants.checked,
      sort: sort.value,
      offset: 0,
    };
  }

  function updatePager(): void {
    prev.disabled = state.offset === 0;
    next.disabled = !hasMore;
    pager.hidden = prev.disabled && next.disabled; // one page only: nothing to page through
  }

  async function load(push: boolean): Promise<void> {
    const pageQuery = queryFromState(state, false);
    const url = `${location.pathname}${pageQuery === '' ? '' : `?${pageQuery}`}`;
    if (url !== `${location.pathname}${location.search}`) {
      if (push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    }
    inflight?.abort();
    const ctrl = new AbortController();
    inflight = ctrl;
    form.setAttribute('aria-busy', 'true');
    try {
      // Just the fields a result line shows (a fraction of the default item's bytes).
      const res = await fetch(`${paths.list}?${queryFromState(state, true)}&fields=${LIST_ITEM_SHOWN.join(',')}`, {
        signal: ctrl.signal,
        headers: { Accept: 'application/json' },
      });
      const body = (await res.json()) as ListResponse | ErrorResponse;
      if (ctrl !== inflight) return;
      if (!res.ok) {
        const err = body as ErrorResponse;
        const detail = err.errors?.map((x) => `${x.param}: ${x.message}`).join('; ');
        status.textContent =
          res.status === 429
            ? 'Too many requests from your address today; please try again later.'
            : `Search failed: ${err.statusMessage}${detail ? ` (${detail})` : ''}.`;
        list.replaceChildren();
        hasMore = false;
        updatePager();
        return;
      }
      const data = body as ListResponse;
      renderItems(list, data.items);
      list.dataset.query = pageQuery; // which query these results answer (the page's query string)
      fillSelect(
        provider,
        'All providers',
        data.facets.providers.map((p) => ({ value: p.provider, label: `${p.display} (${p.count})` })),
        state.provider,
      );
      fillSelect(
        gameType,
        'All game types',
        data.facets.game_types.map((g) => ({ value: g.game_type, label: `${formatGameType(g.game_type)} (${g.count})` })),
        state.game_type,
      );
      fillSelect(
        operator,
        'All games',
        data.facets.operators.map((o) => ({ value: o.operator, label: `${o.display} (${o.count})` })),
        state.operator,
      );
      fillSelect(
        operatorBuild,
        'Any build',
        data.facets.operator_builds.map((b) => ({ value: b.operator_build, label: `${OPERATOR_BUILD_LABELS[b.operator_build]} (${b.count})` })),
        state.operator_build,
      );
      status.textContent = statusText(state.offset, data.items.length, data.meta.filtered, data.meta.total);
      hasMore = data.meta.has_more;
      updatePager();
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      status.textContent = 'Search failed: the registry could not be reached.';
    } finally {
      if (ctrl === inflight) form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    clearTimeout(timer);
    state = readForm();
    void load(true);
  });
  q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state = readForm();
      void load(false);
    }, DEBOUNCE_MS);
  });
  for (const control of [provider, gameType, operator, operatorBuild, sort, hasVariants]) {
    control.addEventListener('change', () => {
      clearTimeout(timer);
      state = readForm();
      void load(true);
    });
  }
  prev.addEventListener('click', () => {
    state = { ...state, offset: Math.max(0, state.offset - PAGE_SIZE) };
    void load(true);
  });
  next.addEventListener('click', () => {
    state = { ...state, offset: state.offset + PAGE_SIZE };
    void load(true);
  });
  window.addEventListener('popstate', () => {
    state = stateFromQuery(location.search);
    setForm(state);
    void load(false);
  });

  if (nojs) nojs.hidden = true;
  form.dataset.ready = 'true';
  if (!isDefaultState(state)) {
    setForm(state);
    void load(false);
  } else {
    state = { ...DEFAULT_STATE };
    updatePager();
  }
}

const form = document.querySelector<HTMLFormElement>('[data-search-form]');
if (form) initSearch(form);
