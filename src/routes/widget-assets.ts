// The widget page's inline style and script, and the Content-Security-Policy that allows exactly them.
// The CSP is sent twice: as a <meta> tag in every widget page and as a header (src/routes/routes.ts -> _headers, server).
import { createHash } from 'node:crypto';

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
  '.z{margin-top:6px;font-size:12px;color:var(--mu);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-variant-numeric:tabular-nums}' +
  '.f{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 12px;font-size:12px;color:var(--mu)}' +
  'a{color:var(--ln);text-decoration:none}a:hover,a:focus-visible{text-decoration:underline}';

/**
 * Inline script: applies the query-string options before first paint.
 * theme=dark (anything else: light); border=<3 or 6 hex digits, optional #> or none; radius=<0..32>;
 * invalid values keep the defaults; other parameters (v) are ignored.
 */
export const WIDGET_SCRIPT =
  '(function(){var q=new URLSearchParams(location.search),e=document.documentElement,s=e.style,t=q.get("theme"),b=q.get("border"),r=q.get("radius");' +
  'if(t==="dark")e.setAttribute("data-theme","dark");' +
  'if(b==="none")s.setProperty("--bw","0px");else if(b&&/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.test(b))s.setProperty("--bc","#"+b.replace("#",""));' +
  'if(r&&/^[0-9]{1,2}$/.test(r)&&+r<=32)s.setProperty("--r",+r+"px")})()';

/** CSP source expression for an inline element's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The widget's Content-Security-Policy: nothing but its own inline style and script (by hash).
 * No frame-ancestors: the widget is meant to be embedded on any site.
 */
export const WIDGET_CSP = `default-src 'none'; style-src ${cspHash(WIDGET_CSS)}; script-src ${cspHash(WIDGET_SCRIPT)}; base-uri 'none'; form-action 'none'`;
