// The widget page's inline style and script, and the Content-Security-Policy that allows exactly them.
// The CSP is sent twice: as a <meta> tag in every widget page and as a header (src/routes/routes.ts -> _headers, server).
import { createHash } from 'node:crypto';
import { WIDGET_LABELS, WIDGET_LANGS } from './widget-i18n.ts';

/** Inline style of every widget page (light theme by default; `data-theme="dark"` on <html> switches). */
export const WIDGET_CSS =
  ':root{--bg:#fff;--fg:#151922;--mu:#586070;--ac:#08775a;--ln:#1a5bbf;--tr:#e4e7ed;--rg:#a6dcc8;--bc:#d5dae3;--bw:1px;--r:12px}' +
  '[data-theme=dark]{--bg:#131720;--fg:#eef1f6;--mu:#a6aebd;--ac:#4cd3a4;--ln:#8db7ff;--tr:#2c3340;--rg:#23644f;--bc:#2c3340}' +
  '*{box-sizing:border-box;margin:0}' +
  'html,body{height:100%;background:transparent}' +
  'body{font:13px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg)}' +
  '.c{height:100%;display:flex;flex-direction:column;justify-content:space-between;gap:8px;padding:14px 16px;background:var(--bg);border:var(--bw) solid var(--bc);border-radius:var(--r);overflow:hidden}' +
  '.h{display:flex;justify-content:space-between;align-items:flex-start;gap:12px}' +
  '.id{min-width:0}' +
  'h1{font-size:17px;line-height:1.25;font-weight:650;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}' +
  '.p{color:var(--mu);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}' +
  '.r{flex:none;text-align:right}' +
  '.r b{display:block;font-size:30px;line-height:1.05;font-weight:700;color:var(--ac);font-variant-numeric:tabular-nums}' +
  '.l{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--mu)}' +
  '.v{display:flex;justify-content:space-between;align-items:baseline;gap:8px;margin-bottom:2px}' +
  'svg{display:block;width:100%;height:20px}' +
  'line{vector-effect:non-scaling-stroke;stroke-linecap:round}' +
  '.t{stroke:var(--tr);stroke-width:6}.g{stroke:var(--rg);stroke-width:6}.k{stroke:var(--mu);stroke-width:2}.s{stroke:var(--ac);stroke-width:4}' +
  '.x{display:flex;justify-content:space-between;font-size:11px;color:var(--mu)}' +
  // The operator line takes the place of the variants as text; on a narrow frame the axis figures and the variants label give way so the footer's attribution stays inside the 220 px.
  '.o{margin-top:6px;font-size:12px;font-variant-numeric:tabular-nums}.op .z{display:none}' +
  '@media(max-width:400px){.x{display:none}.op .v .l{display:none}}' +
  '.z{margin-top:6px;font-size:12px;color:var(--mu);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-variant-numeric:tabular-nums}' +
  '.f{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 12px;font-size:12px;color:var(--mu)}' +
  'a{color:var(--ln);text-decoration:none}a:hover,a:focus-visible{text-decoration:underline}';

/** The table the inline script reads: one row per language besides English (what the page holds already). */
function labelTable(): string {
  const rows = WIDGET_LANGS.filter((l) => l !== 'en').map((l) => {
    const x = WIDGET_LABELS[l];
    // Short keys: this script is inline in every widget page.
    return {
      S: x.stated,
      V: x.variants,
      v: x.variant,
      o: x.noOther,
      c: x.verified,
      e: x.confidence.verified,
      g: x.confidence.corroborated,
      h: x.confidence.single_source,
      u: x.source,
      k: x.operator.sep,
      B: x.operator.top,
      W: x.operator.lower,
      H: x.operator.higher,
      C: x.operator.pinned,
      d: x.decimal,
      s: x.suffix,
      t: x.date === 'dmy' ? x.dateSep : '',
    };
  });
  return `var N=${JSON.stringify(WIDGET_LANGS.filter((l) => l !== 'en'))},T=${JSON.stringify(rows)}`;
}

/**
 * Inline script: applies the query-string options before first paint.
 * theme=dark (anything else: light); border=<3 or 6 hex digits, optional #> or none; radius=<0..32>;
 * operator=<key> shows that operator's line (`p.o[data-k]`, pre-rendered hidden) when the page holds
 * one for the key, and nothing otherwise;
 * lang=de|es|pt|fr|it rewrites the marked texts once the page is parsed: `data-t` labels, `data-p`
 * figures (as stated, at least two decimals), `data-i` axis percentages, `data-n` variant counts,
 * `data-d` dates, `data-a` the ladder's text alternative, and the title; any other lang is English.
 * Invalid values keep the defaults; other parameters (v) are ignored.
 */
export const WIDGET_SCRIPT =
  '(function(){var q=new URLSearchParams(location.search),e=document.documentElement,s=e.style,t=q.get("theme"),b=q.get("border"),r=q.get("radius"),o=q.get("operator");' +
  'if(t==="dark")e.setAttribute("data-theme","dark");' +
  'if(b==="none")s.setProperty("--bw","0px");else if(b&&/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.test(b))s.setProperty("--bc","#"+b.replace("#",""));' +
  'if(r&&/^[0-9]{1,2}$/.test(r)&&+r<=32)s.setProperty("--r",+r+"px");' +
  labelTable() +
  ',i=N.indexOf(q.get("lang")),L=T[i];if(i>=0)e.lang=N[i];' +
  'function P(v){var k=v.indexOf("."),w=k<0?v:v.slice(0,k),d=k<0?"":v.slice(k+1);while(d.length<2)d+="0";return w+L.d+d+L.s}' +
  'function A(x,f){document.querySelectorAll("["+x+"]").forEach(function(n){f(n,n.getAttribute(x))})}' +
  'document.addEventListener("DOMContentLoaded",function(){' +
  // An attribute compared as text, never a selector built from the query: any operator value is inert.
  'A("data-k",function(n,k){if(k===o){n.hidden=false;e.classList.add("op")}});' +
  'if(!L)return;' +
  'A("data-t",function(n,k){n.textContent=L[k]});' +
  'A("data-p",function(n,v){n.textContent=P(v)});' +
  'A("data-i",function(n,v){n.textContent=v+L.s});' +
  'A("data-n",function(n,v){n.textContent=v+" "+L.v[v==="1"?0:1]});' +
  'A("data-d",function(n,v){if(L.t)n.textContent=v.slice(8,10)+L.t+v.slice(5,7)+L.t+v.slice(0,4)});' +
  'A("data-a",function(n,v){var p=v.split(" "),x=p.shift();n.setAttribute("aria-label",L.V+": "+p.map(P).join(", ")+"; "+L.S+" "+P(x))});' +
  'var h=document.querySelector("h1"),g=document.querySelector(".r b"),f=document.querySelector("footer>a");' +
  'if(h&&g&&f)document.title=h.title+" RTP "+g.textContent+" · "+f.textContent})})()';

/** CSP source expression for an inline element's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The widget's Content-Security-Policy: nothing but its own inline style and script (by hash).
 * No frame-ancestors: the widget is meant to be embedded on any site.
 */
export const WIDGET_CSP = `default-src 'none'; style-src ${cspHash(WIDGET_CSS)}; script-src ${cspHash(WIDGET_SCRIPT)}; base-uri 'none'; form-action 'none'`;
