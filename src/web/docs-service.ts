/**
 * `GET /_sim/docs`: the contract reference as one server-rendered page (the generator of
 * docs/CONTRACT.md), with a filter that narrows the field tables to the kinds whose name holds
 * the typed text. Sections have the ids `spec-2.5`; the console's journal links a violation's
 * citation there, and a kind's table is `#kind-<kind>`.
 */
import type { PlatformService } from '../platform/types.js';
import { contractHtml } from '../reference/render.js';

// a wide table scrolls in its own box, never the page; a linked kind (#kind-x) stops below the
// sticky header (scroll-padding), which wraps on a phone
const STYLE = `html{scroll-padding-top:4.5rem}@media (max-width:40rem){html{scroll-padding-top:7rem}}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem 4rem;color:#1b1f24;background:#fff}
header{position:sticky;top:0;background:#fff;padding:.6rem 0;border-bottom:1px solid #d0d7de;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
input{font:inherit;padding:.3rem .5rem;width:22rem;max-width:100%;box-sizing:border-box}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:13px;display:block;max-width:100%;overflow-x:auto}
pre{overflow-x:auto}p,li{overflow-wrap:anywhere}
th,td{border:1px solid #d0d7de;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{background:#f6f8fa;padding:0 .2rem;border-radius:3px}
.kind{margin-left:.5rem}.hidden{display:none}:target{background:#fff8c5}`;

/** Hides every kind whose name does not hold the filter; the hash `#kind-x` fills it in. */
const SCRIPT = `const input=document.getElementById('filter');const kinds=[...document.querySelectorAll('.kind')];
const count=document.getElementById('count');
function apply(){const q=input.value.trim().toLowerCase();let n=0;for(const k of kinds){const show=q===''||k.dataset.kind.toLowerCase().includes(q);k.classList.toggle('hidden',!show);if(show)n++;}count.textContent=q===''?'':n+(n===1?' kind':' kinds');}
input.addEventListener('input',apply);
if(location.hash.startsWith('#kind-')){input.value=decodeURIComponent(location.hash.slice(6));apply();}`;

let page: string | undefined;

/** The whole page, built once per process (the contract does not change while it runs). */
export function contractPage(): string {
  page ??= `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc contract</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><header><strong>svc contract</strong><input id="filter" type="search" placeholder="filter kinds: BOT_MESSAGE, hook.chat, widget" aria-label="filter kinds"><span id="count"></span><a href="/_sim/console/">console</a></header>
<main>${contractHtml()}</main><script>${SCRIPT}</script></body></html>`;
  return page;
}

export function createDocsService(): PlatformService {
  return {
    name: 'docs',
    routes: [
      {
        method: ['GET', 'HEAD'],
        path: '/_sim/docs',
        handler: () => ({
          status: 200,
          body: contractPage(),
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
          record: { iface: 'control' },
        }),
      },
    ],
  };
}
