import { failedSpan, invalidNote, LANES, type TraceSpan } from './span.js';
import type { TracedConversation } from './read.js';
import type { Violation } from './invariants.js';

/** The word after a count: "1 exchange", "2 exchanges". */
const noun = (count: number, one: string): string => (count === 1 ? one : `${one}s`);

/*
 * The HTML report: one self-contained file (inline CSS and script, no network, opens from
 * disk), a swimlane timeline per conversation, its broken invariants in red. Written in
 * pieces (head, a section per conversation, tail) so a long recording streams into it.
 */

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const secs = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

/** The colours, light and dark, on `scope` (`:root` for a report page). */
const theme = (scope: string): string => `
${scope}{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--dim:#5b6470;--line:#c9d1d9;--ok:#1a7f37;--warn:#875c00;--bad:#cf222e;--bad-bg:#ffebe9;--card:#f6f8fa;--arrow:#0969da;--dash:repeating-linear-gradient(var(--line) 0 4px,transparent 4px 8px)}
@media (prefers-color-scheme:dark){${scope}{--bg:#0d1117;--fg:#e6edf3;--dim:#9198a1;--line:#30363d;--ok:#3fb950;--warn:#d29922;--bad:#ff7b72;--bad-bg:#3c1618;--card:#161b22;--arrow:#58a6ff}}`;

/** A conversation's section: heading, violations, the swimlanes (one rule a line). */
const TIMELINE_CSS = `
h2{font-size:1.05rem;margin:0;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
a{color:var(--arrow)}
.conv{background:var(--card);color:var(--fg);border:1px solid var(--line);border-radius:8px;padding:.75rem;margin:0 0 1rem}
.conv:focus,.x>:focus{outline:2px solid var(--arrow)}
[hidden]{display:none!important}
.badge{font-size:.8rem;padding:0 .45rem;border-radius:1rem;border:1px solid var(--line);color:var(--dim);background:none;font-weight:normal}
.badge.bad{border-color:var(--bad);color:var(--bad)}
.violations{margin:.5rem 0;padding:0;list-style:none}
.violation{color:var(--bad);background:var(--bad-bg);border-left:4px solid var(--bad);padding:.35rem .6rem;margin:.25rem 0;border-radius:4px;overflow-wrap:anywhere}
.conv.lazy{content-visibility:auto;contain-intrinsic-size:auto 30rem}
.lanes{--tc:6.5rem;display:grid;grid-template-columns:var(--tc) repeat(5,minmax(0,1fr));column-gap:0;margin-top:.5rem;overflow-x:auto;background-image:var(--dash),var(--dash),var(--dash),var(--dash),var(--dash);background-size:1px 100%;background-repeat:no-repeat;background-position:calc(var(--tc)*.9 + 10%) 0,calc(var(--tc)*.7 + 30%) 0,calc(var(--tc)*.5 + 50%) 0,calc(var(--tc)*.3 + 70%) 0,calc(var(--tc)*.1 + 90%) 0}
.more{grid-column:1/-1;color:var(--dim);font-size:.85rem;padding:.35rem 0;text-align:center;background:var(--card);z-index:1}
.lanes .head{display:contents}
.lanes .head span{font-weight:600;text-align:center;padding:.25rem 0;border-bottom:1px solid var(--line);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.lanes .head span:first-child{text-align:left}
.x{display:contents}
.x .t{grid-column:1;font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--dim);padding:.2rem 0;white-space:nowrap;min-height:1.4rem}
.x .t .gap{display:block;color:var(--dim);opacity:.8}
.x .arrow{position:relative;align-self:center;height:0;border-top:2px solid var(--arrow);margin:0 calc(50% / var(--span));z-index:1}
.x.failed .arrow{border-top-color:var(--bad);border-top-style:dashed}
.x .arrow::after{content:"";position:absolute;top:-6px;border:5px solid transparent}
.x .arrow.right::after{right:-2px;border-left:8px solid var(--arrow)}
.x .arrow.left::after{left:-2px;border-right:8px solid var(--arrow)}
.x.failed .arrow.right::after{border-left-color:var(--bad)}
.x.failed .arrow.left::after{border-right-color:var(--bad)}
.x .dot{position:absolute;top:-5px;width:8px;height:8px;border-radius:50%;background:var(--arrow)}
.x .label{grid-column:2/-1;font-size:.85rem;padding:0 0 .35rem;overflow-wrap:anywhere}
.x .label .seq{font-weight:600}
.x .label .cause{color:var(--dim)}
.x .label a.cause{white-space:nowrap}
.x .label .bad{color:var(--bad);font-weight:600}
.x .label .ok{color:var(--ok)}
.x .label .warn{color:var(--warn);font-weight:600}
.x.violating .label{background:var(--bad-bg);border-radius:4px}
.x:target .label{outline:2px solid var(--arrow)}
.x .self{align-self:center;justify-self:center;width:10px;height:10px;border-radius:50%;background:var(--arrow);z-index:1}
@media (max-width:600px){.lanes{--tc:4.5rem}.x .t{font-size:10px}
.lanes .head span{font-size:.7rem;display:flex;justify-content:center;overflow:visible;white-space:nowrap}
.lanes .head span:first-child{justify-content:flex-start}
.lanes .head span:nth-child(2n+3){padding-top:1.15rem}}
`;

/** The rest of a report page. */
const PAGE_CSS = `
*{box-sizing:border-box}
body{margin:0;padding:1rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--fg)}
main{overflow-wrap:anywhere}
pre{overflow-x:auto;max-width:100%;white-space:pre}
h1{font-size:1.3rem;margin:0 0 .5rem}
.summary{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:0 0 1rem;color:var(--dim)}
.summary b{color:var(--fg)}
.summary b.bad{color:var(--bad)}
.summary a.to-bad{color:inherit;text-decoration-color:var(--bad)}
nav ol{margin:.25rem 0 1rem;padding-left:1.25rem;columns:18rem}
@media print{.conv.lazy{content-visibility:visible}}
.brief{margin:0;padding:.2rem .75rem;color:var(--dim);font-size:.85rem}
.steps{list-style:none;margin:.5rem 0;padding-left:.75rem}
.made{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:-.5rem 0 1rem;color:var(--dim);font-size:.85rem}
.made code{color:var(--fg);overflow-wrap:anywhere}.w{white-space:nowrap}
.made .arg{display:inline-block;max-width:100%;white-space:pre-wrap;vertical-align:top}
details.folded{margin:0 0 1rem}
details.folded>summary{cursor:pointer;color:var(--dim);margin:0 0 .5rem}
label.only{display:inline-flex;gap:.35rem;align-items:center;margin:0 0 1rem}
body.only-bad .conv:not(.has-bad),body.only-bad .group:not(.has-bad){display:none}
body.only-bad h3.part:not(:has(~ .has-bad)){display:none}
h3{font-size:.95rem;margin:.75rem 0 .25rem}
h3.part{font-size:1.05rem;margin:1.5rem 0 .5rem;padding-top:.75rem;border-top:1px solid var(--line)}
.bars{display:grid;grid-template-columns:3.5rem minmax(0,1fr);gap:.2rem .6rem;align-items:center;margin:.25rem 0 .5rem}
.bars .name{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--dim)}
.bars .track{display:flex;align-items:center;gap:.4rem;min-width:0}
.bars .bar{height:1rem;background:var(--arrow);border-radius:3px;min-width:2px;flex:0 1 auto}
.bars .v{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;white-space:nowrap;flex:none}
.ok-line{color:var(--ok);padding:.2rem .6rem;list-style:none}
table.states{border-collapse:collapse;margin:.5rem 0}
table.states td,table.states th{border-bottom:1px solid var(--line);padding:.15rem .6rem;text-align:right}
table.states th{text-align:left;font-weight:600}
@media (max-width:600px){body{padding:.5rem}}
`;

const CSS = `${theme(':root')}${TIMELINE_CSS}${PAGE_CSS}`;

/**
 * The styles of `reportSection` for a page of its own (the web console's Timeline tab): the
 * colours and every rule under `scope`, so the host page's own rules and theirs stay apart.
 * @example style.textContent = timelineCss('.trace-timeline');
 */
export function timelineCss(scope: string): string {
  const rules = TIMELINE_CSS.replace(
    /([^{}@]+)\{([^{}]*)\}/g,
    (_, selectors: string, body: string) => {
      const scoped = selectors
        .split(',')
        .map((sel) => `${scope} ${sel.trim()}`)
        .join(',');
      return `${scoped}{${body}}`;
    },
  );
  return `${theme(scope)}${rules}`;
}

const SCRIPT = `
var sum=document.getElementById('run-summary'),h1=document.querySelector('h1');if(sum&&h1)h1.after(sum);
var jk=document.getElementById('jk');if(jk)jk.hidden=document.querySelectorAll('.conv').length<2;
var only=document.getElementById('only-bad'),none=document.getElementById('none-bad');if(only)only.addEventListener('change',function(e){document.body.classList.toggle('only-bad',e.target.checked);if(none)none.hidden=!(e.target.checked&&!document.querySelector('.has-bad'))});
window.addEventListener('hashchange',function(){var t=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(t&&getComputedStyle(t).display==='contents')t=t.firstElementChild;if(!t)return;if(!t.hasAttribute('tabindex'))t.setAttribute('tabindex','-1');t.focus()});
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.to-bad');if(!a)return;var b=document.querySelector('.has-bad');if(!b)return;e.preventDefault();if(!b.hasAttribute('tabindex'))b.setAttribute('tabindex','-1');b.scrollIntoView();b.focus()});
document.addEventListener('keydown',function(e){var t=e.target;if(t.tagName==='TEXTAREA'||(t.tagName==='INPUT'&&t.type!=='checkbox'))return;var s=[].slice.call(document.querySelectorAll('.conv')).filter(function(c){return c.offsetParent!==null});if(!s.length)return;var i=s.indexOf(document.activeElement);if(e.key==='j'){s[Math.min(s.length-1,i+1)].focus();e.preventDefault()}if(e.key==='k'){s[Math.max(0,i-1)].focus();e.preventDefault()}});
`;

export interface ReportSummary {
  conversations: number;
  exchanges: number;
  violations: number;
  /** a mutation run's figures (`svc-cli mutate --report`), shown before the conversations' */
  mutation?: MutationFigures;
  /** runs listed without a chat to draw (`runSection`) */
  runs?: number;
  /** runs (replay's conversations, conform's cases) that passed, when the page has runs */
  passed?: number;
  /** runs that failed (replay, conform): the page says so beside their chats */
  failed?: number;
  /** runs skipped (conform's cases a peer cannot be checked on), when the page has runs */
  skipped?: number;
  /** runs a signal cut short (replay, conform): beside their chats, or listed without one */
  interrupted?: number;
  /** exchanges past the per-conversation cap, counted and not kept (`exchanges` is the kept) */
  notKept?: number;
  /** lines of the recording that were no journal record (a cut or damaged file), skipped */
  skippedLines?: number;
  /** no rule was judged on the page's chats (conform bot): no violations to count */
  unjudged?: true;
  /** the run opens no chat (conform hooks, integrator): no conversations to count */
  chatless?: true;
  /** exchanges of the recording outside any chat (status checks, control reads, refusals) */
  outside?: number;
}

/** A run the report lists by itself: no chat of it in the recording to draw (replay, conform). */
export interface ReportRun {
  /** the journal run of its exchanges, when it recorded any */
  run?: string;
  name: string;
  verdict: 'passed' | 'failed' | 'skipped' | 'interrupted';
  /** one line each: ✓ / ✗ / - and the step's name */
  steps: readonly string[];
  /** why there is no chat to draw */
  why: string;
  /** its failed steps, each with what was expected and what came (one line each) */
  failures?: readonly RunFailure[];
  /** a run a signal cut short: what it says of that, also on the chats it drew */
  interrupted?: string;
}

/** A failed step of a run, as the terminal prints it. */
export interface RunFailure {
  step: string;
  details: readonly string[];
}

/** A run's failed steps in red, above its timeline or under its name. */
function failureList(failures: readonly RunFailure[]): string {
  if (failures.length === 0) return '';
  const items = failures
    .map(
      (f) =>
        `<li class="violation failure"><b>✗ ${proseHtml(f.step)}</b>${f.details.map((d) => `<br>${proseHtml(d)}`).join('')}</li>`,
    )
    .join('');
  return `<ul class="violations">${items}</ul>`;
}

export interface MutationFigures {
  score: number;
  killed: number;
  timedOut: number;
  survived: number;
  notExercised: number;
  /** a run the signal stopped: the mutants that did not finish (the score counts the others) */
  interrupted?: number;
}

/** One mutant's outcome, as `svc-cli mutate` ran it (src/mutate/run.ts). */
export interface MutantRow {
  name: string;
  family: string;
  spec: string;
  deviation: string;
  survivor: string;
  /** interrupted: the signal stopped the run before this mutant finished */
  outcome: 'killed' | 'survived' | 'timeout' | 'not-exercised' | 'interrupted';
  wallMs: number;
}

const OUTCOME_WORDS: Record<MutantRow['outcome'], string> = {
  killed: 'killed: your tests noticed',
  timeout: 'timed out: counted as killed',
  survived: 'survived',
  'not-exercised': 'never exercised by the recorded run: not run',
  interrupted: 'interrupted before it finished: no result',
};

/**
 * The order of the cards: what needs a look first (a survivor, then a mutant cut short), then
 * the kills, and last the mutants never run, which would otherwise bury the survivors.
 */
const OUTCOME_ORDER: Record<MutantRow['outcome'], number> = {
  survived: 0,
  interrupted: 1,
  killed: 2,
  timeout: 3,
  'not-exercised': 4,
};

/**
 * The mutants as the report lists them: survivors first, then interrupted, killed, timed out
 * and never exercised, each group in the order given (the catalogue's).
 * @example sortMutantRows(results)[0].outcome // 'survived', when any survived
 */
export function sortMutantRows<T extends Pick<MutantRow, 'outcome'>>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => OUTCOME_ORDER[a.outcome] - OUTCOME_ORDER[b.outcome]);
}

/**
 * The line before the mutants of a run the signal stopped: how many finished and how many did
 * not, so a page of a run cut short never reads as a whole run.
 * @example sink.write(mutationInterruptedNote(4, 31));
 */
export function mutationInterruptedNote(finished: number, notRun: number): string {
  return `<ul class="violations"><li class="violation interrupted">interrupted: ${finished} of ${finished + notRun} ${noun(finished + notRun, 'mutant')} finished, ${notRun} did not run; the score counts only those that finished</li></ul>\n`;
}

/**
 * One mutant's section, in the same cards as the conversations: its name, family, contract
 * section and outcome; a survivor in red with what the suite does not check.
 * @example sink.write(mutantSection(result));
 */
export function mutantSection(m: MutantRow): string {
  const survived = m.outcome === 'survived';
  const bad = survived || m.outcome === 'interrupted';
  const time =
    m.outcome === 'not-exercised' || m.outcome === 'interrupted'
      ? ''
      : ` <span class="badge">${secs(m.wallMs)}</span>`;
  const outcome = `<span class="badge${bad ? ' bad' : ''}">${OUTCOME_WORDS[m.outcome]}</span>`;
  const why = survived
    ? `<ul class="violations"><li class="violation" data-mutant="${escapeHtml(m.name)}">${proseHtml(m.survivor)}</li></ul>`
    : '';
  return `<section class="conv mutant${bad ? ' has-bad' : ''}" id="mutant-${escapeHtml(m.name)}" data-outcome="${m.outcome}" tabindex="0" aria-label="mutant ${escapeHtml(m.name)}"><h2>${escapeHtml(m.name)} <span class="badge">${escapeHtml(m.family)}, spec ${escapeHtml(m.spec)}</span>${time} ${outcome}</h2><p class="summary">the simulator ${escapeHtml(m.deviation)}</p>${why}</section>\n`;
}

/** How a report was made, named under its title (src/cli/render/report-made.ts). */
export interface ReportMade {
  /** the command line as run, quoted to paste, its secrets hidden */
  command: string;
  /** the svc-cli version that wrote it */
  version: string;
  /** when the page was written (ISO 8601) */
  writtenAt: string;
}

/**
 * One argument of a command line as report-made.ts quotes it: bare characters, `\x` and
 * '...' runs (a quote inside is `'\''`); a quote left open runs to the end, so every character
 * but the spaces between arguments is in one.
 */
const SHELL_ARG = /(?:[^\s'\\]+|\\[\s\S]?|'[^']*'?)+/g;

/**
 * The command line with each argument kept whole where it fits on a line: a browser breaks
 * `--hook-listen-port` after its first `-` (read as a flag `-hook-listen-port`) and a quoted
 * `'chat accepted'` at its space (read as two arguments). An argument wider than the line
 * (`node -e '<a script>'` on a phone) still breaks inside (`.made .arg`). Copying it gives the
 * same text.
 */
const commandWords = (command: string): string =>
  command.replace(SHELL_ARG, (arg) => `<span class="arg">${escapeHtml(arg)}</span>`);

/**
 * Text as HTML with each `--flag` in it kept on one line: a browser breaks `--no-invariant`
 * after its dashes, which reads as `-no-invariant` or `no-invariant` on the next line.
 * @example proseHtml('--no-invariant callback-order switches it off')
 */
export const proseHtml = (text: string): string =>
  escapeHtml(text).replace(
    /(?<![\w-])--[a-z][a-z0-9-]*/g,
    (flag) => `<span class="w">${flag}</span>`,
  );

/** The line under the title: the command line, the version, when it was written. */
const madeLine = (m: ReportMade | undefined): string =>
  m === undefined
    ? ''
    : `<p class="made"><code>${commandWords(m.command)}</code><span>svc-cli ${escapeHtml(m.version)}</span><span>written <time datetime="${escapeHtml(m.writtenAt)}">${escapeHtml(m.writtenAt)}</time></span></p>`;

/**
 * What the page says when its filter leaves nothing, from the filter's label.
 * @example noneMarked('only failed runs and conversations with violations') // 'No failed runs and no conversations with violations.'
 */
function noneMarked(filter: string): string {
  const kept = filter.replace(/^only /, '').split(' and ');
  return `No ${kept.join(' and no ')}.`;
}

/**
 * The file's start: the page head, the title, how it was made, and the filter (its label says
 * what it keeps: the sections marked bad, conversations with violations or surviving mutants;
 * false: no filter, for a report of one section such as `load --report`).
 */
export function reportHead(
  title: string,
  filter: string | false = 'only conversations with violations',
  made?: ReportMade,
): string {
  const only =
    filter === false
      ? ''
      : `<label class="only"><input type="checkbox" id="only-bad"> ${escapeHtml(filter)}</label><p class="summary" id="jk" style="margin-top:-.5rem" hidden>j / k: next / previous section</p><p class="summary" id="none-bad" role="status" hidden>${escapeHtml(noneMarked(filter))}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body><main><h1>${escapeHtml(title)}</h1>${madeLine(made)}${only}\n`;
}

function laneIndex(span: TraceSpan): number {
  return LANES.indexOf(span.lane);
}

function row(
  c: TracedConversation,
  s: TraceSpan,
  prev: number,
  id: string,
  marked: ReadonlySet<number>,
): string {
  const start = c.spans[0]?.startMs ?? 0;
  const gap = s.startMs - prev;
  const platform = LANES.indexOf('platform');
  const party = laneIndex(s);
  let arrow: string;
  if (party === platform)
    arrow = `<span class="self" style="grid-column:${platform + 2}" title="platform"></span>`;
  else {
    const from = Math.min(party, platform);
    const to = Math.max(party, platform);
    const toRight = s.direction === 'in' ? platform > party : party > platform;
    arrow = `<span class="arrow ${toRight ? 'right' : 'left'}" style="grid-column:${from + 2}/${to + 3};--span:${to - from + 1}"></span>`;
  }
  const failed = failedSpan(s);
  const invalid = invalidNote(s);
  const outcome =
    (s.failure ??
      `${s.status ?? ''}${s.errorReply !== undefined ? ` error reply (${s.errorReply})` : s.accepted === true ? ' accepted' : s.accepted === false ? ' rejected' : ''}`) +
    invalid;
  const text =
    s.text === undefined
      ? ''
      : ` “${escapeHtml(s.text.length > 80 ? `${s.text.slice(0, 79)}…` : s.text)}”`;
  const attempt = s.attempt !== undefined && s.direction === 'out' ? ` attempt ${s.attempt}` : '';
  const cause =
    s.cause === undefined
      ? ''
      : ` <a class="cause" href="#${id}-${s.cause}">← #${s.cause}</a>${s.causeBy === 'record' ? ' <span class="cause">(recorded)</span>' : ''}`;
  const classes = ['x', failed ? 'failed' : '', marked.has(s.seq) ? 'violating' : '']
    .filter(Boolean)
    .join(' ');
  return `<div class="${classes}" id="${id}-${s.seq}" data-lane="${s.lane}" data-seq="${s.seq}"><span class="t">+${secs(s.startMs - start)}${gap > 0 ? `<span class="gap">gap ${secs(gap)}</span>` : ''}</span>${arrow}<span class="label"><span class="seq">#${s.seq}</span> ${escapeHtml(s.name)}${attempt}${text} <span class="${failed ? 'bad' : s.errorReply !== undefined ? 'warn' : s.accepted ? 'ok' : ''}">${escapeHtml(outcome.trim())}</span>${cause}</span></div>`;
}

/**
 * The timeline's rows: every exchange, or past `maxRows` the first three quarters of them,
 * the last quarter and every exchange a violation names, with a line saying how many were
 * left out between (a 100k-exchange run stays a file a browser opens: bench/trace.js).
 */
function drawnRows(
  c: TracedConversation,
  id: string,
  marked: ReadonlySet<number>,
  maxRows: number,
  recording: string | undefined,
): string {
  const n = c.spans.length;
  const head = Math.ceil(maxRows * 0.75);
  const tail = Math.floor(maxRows - head);
  const keep = (i: number): boolean =>
    n <= maxRows || i < head || i >= n - tail || marked.has(c.spans[i]!.seq);
  const out: string[] = [];
  let skipped = 0;
  let from = 0;
  for (let i = 0; i < n; i++) {
    const s = c.spans[i]!;
    if (!keep(i)) {
      if (skipped === 0) from = s.seq;
      skipped++;
      continue;
    }
    if (skipped > 0) {
      out.push(more(skipped, from, c.spans[i - 1]!.seq, c.chat, recording));
      skipped = 0;
    }
    out.push(row(c, s, i === 0 ? s.startMs : c.spans[i - 1]!.startMs, id, marked));
  }
  if (skipped > 0) out.push(more(skipped, from, c.spans[n - 1]!.seq, c.chat, recording));
  return out.join('');
}

/** `50000 exchanges (12 more not kept)`: the kept ones, and what the cap left out, as `trace` says it. */
const exchangeCount = (c: TracedConversation): string =>
  `${c.spans.length} ${noun(c.spans.length, 'exchange')}${c.dropped > 0 ? ` (${c.dropped} more not kept)` : ''}`;

/**
 * The recording as a report's command line names it: the file `report` read (quoted when the
 * shell would split it), else a placeholder (a replay or conform page was drawn from a run).
 */
const recordingArg = (recording: string | undefined): string =>
  recording === undefined || recording === 'stdin'
    ? '&lt;recording&gt;'
    : escapeHtml(
        /^[\w./@%+=:,-]+$/.test(recording) ? recording : `'${recording.replace(/'/g, `'\\''`)}'`,
      );

/** The timeline's last line when the cap left exchanges out: not in the report, not drawable. */
const notKeptLine = (c: TracedConversation, recording: string | undefined): string =>
  c.dropped === 0
    ? ''
    : `<div class="more">${c.dropped} more ${noun(c.dropped, 'exchange')} not kept: a conversation keeps its first ${c.spans.length}, so they are not in this report (<code>svc-cli trace ${recordingArg(recording)} --chat ${c.chat}</code> counts them too)</div>`;

const more = (
  count: number,
  from: number,
  to: number,
  chat: number,
  recording: string | undefined,
): string =>
  `<div class="more">${count} ${noun(count, 'exchange')} not drawn (#${from} to #${to}): <code>svc-cli report ${recordingArg(recording)} --chat ${chat}</code> draws them all</div>`;

/** The run's badge, none for a HAR svc-cli did not write (a browser's names no run). */
const runBadge = (run: string): string =>
  run === '' ? '' : `<span class="badge">run ${escapeHtml(run)}</span> `;

/**
 * A conversation listed and not drawn: past the report's row budget, one line with its
 * figures (bench/trace.js: a long run's report stays under 20 MB).
 * @example sink.write(reportBrief(conversation));
 */
export function reportBrief(c: TracedConversation, name?: string): string {
  const first = c.spans[0]?.startMs ?? 0;
  const last = c.spans.reduce((end, s) => Math.max(end, s.endMs), first);
  const title = name ? `${escapeHtml(name)} · chat ${c.chat}` : `chat ${c.chat}`;
  const run = c.run === '' ? '' : ` · run ${escapeHtml(c.run)}`;
  return `<p class="brief group" id="c-${escapeHtml(c.run)}-${c.chat}">${title}${run} · ${exchangeCount(c)} · ${secs(last - first)} · invariants hold</p>\n`;
}

/**
 * The line after the listed conversations: how many more the report only counted;
 * `recording`, the file `report` read, is named in its command.
 */
export function unlistedNote(count: number, recording?: string): string {
  return `<p class="brief group">and ${count} more ${noun(count, 'conversation')} without violations, not listed: <code>svc-cli trace ${recordingArg(recording)}</code> prints every one</p>\n`;
}

/**
 * The line before the first listed conversation: why the rest are not drawn; `recording`,
 * the file `report` read, is named in its command.
 */
export function briefNote(drawn: number, recording?: string): string {
  // the listed conversations hold no violation: the filter hides them with their heading
  return `<h3 class="group">More conversations, not drawn</h3><p class="summary group">The first ${drawn} ${noun(drawn, 'conversation')} are drawn; the others without violations are listed. <code>svc-cli report ${recordingArg(recording)} --chat &lt;id&gt;</code> draws one.</p>\n`;
}

/**
 * The heading between a mutation run's mutant cards and the conversations of its recordings
 * (`--coverage`); hidden by the filter when no marked section follows it.
 */
export function conversationsNote(files: readonly string[]): string {
  const names = files.map((f) => `<code>${escapeHtml(f.split(/[\\/]/).pop() ?? f)}</code>`);
  return `<h3 class="part">Conversations recorded in ${names.join(', ')}</h3>\n`;
}

/** How long a quoted text may be in a conversation's gist. */
const GIST_TEXT = 30;
/** How many runs of one exchange name a gist lists before `…`. */
const GIST_NAMES = 4;

/**
 * What a conversation did, to tell it from the others of a recording that names none (a test
 * suite's, where every one is `chat 1`): its exchanges' names, a run of one counted, and the
 * last text it quoted.
 * @example conversationGist(c) // 'customer.text, agent.text ×3 “lost”'
 */
export function conversationGist(c: TracedConversation): string {
  const runs: Array<{ name: string; count: number }> = [];
  for (const s of c.spans) {
    const name = s.name.split(' ')[0] ?? s.name;
    const last = runs.at(-1);
    if (last?.name === name) last.count++;
    else runs.push({ name, count: 1 });
  }
  const names = runs
    .slice(0, GIST_NAMES)
    .map((r) => (r.count > 1 ? `${r.name} ×${r.count}` : r.name))
    .join(', ');
  const text = c.spans.findLast((s) => s.text !== undefined && s.text !== '')?.text;
  const quoted =
    text === undefined
      ? ''
      : ` “${text.length > GIST_TEXT ? `${text.slice(0, GIST_TEXT - 1)}…` : text}”`;
  return `${names}${runs.length > GIST_NAMES ? ', …' : ''}${quoted}`;
}

/** The heading before the failed cases of a run that are not one conversation each (conform). */
export function failedNote(count: number): string {
  return `<h3>${count} failed ${noun(count, 'case')}</h3>\n`;
}

/**
 * The passed and skipped runs of their own (conform's cases), folded under one line that
 * counts them: the page names every case the terminal did, the failed ones open above.
 * @example sink.write(foldedRuns(passedCases, 'case'));
 */
export function foldedRuns(runs: readonly ReportRun[], runNoun = 'run'): string {
  const passed = runs.filter((r) => r.verdict === 'passed').length;
  const skipped = runs.filter((r) => r.verdict === 'skipped').length;
  const counts = [
    passed > 0 ? `${passed} passed` : '',
    skipped > 0 ? `${skipped} skipped` : '',
  ].filter(Boolean);
  // passed and skipped only: the filter hides the fold with its runs
  return `<details class="folded group"><summary>${counts.join(', ')} ${noun(runs.length, runNoun)}</summary>${runs.map(runSection).join('')}</details>
`;
}

/**
 * The heading before the runs without a chat to draw; `runNoun` is what the command calls a
 * run (conform's are cases, as its terminal note says).
 */
/**
 * Why a page of a recording draws no conversation: its exchanges were all outside a chat, or
 * there were none, and what to record instead.
 */
export function nothingDrawnNote(outside: number): string {
  const why =
    outside > 0
      ? `its ${outside} ${noun(outside, 'exchange')} ${outside === 1 ? 'is' : 'are'} outside any chat (status checks, control requests, refused messages)`
      : 'it holds no exchange of a chat';
  return `<p class="brief" role="status">No conversation to draw: ${escapeHtml(why)}. A conversation starts with a customer message the platform took: record the platform while a chat runs (<code>svc-cli platform --record session.ndjson</code>), or a proxy between your app and the platform.</p>\n`;
}

export function runsNote(count: number, runNoun = 'run', anyFailed = true): string {
  // a heading over runs the filter hides all of would stand over nothing: it goes with them
  return `<h3 class="group${anyFailed ? ' has-bad' : ''}">${count} ${noun(count, runNoun)} without a chat to draw</h3>\n`;
}

/** Whether a run is marked: the filter keeps it (`runSection`'s `has-bad`). */
export const runFailed = (r: Pick<ReportRun, 'verdict'>): boolean =>
  r.verdict === 'failed' || r.verdict === 'interrupted';

/**
 * A run with no chat in the recording: its name, verdict, why nothing is drawn, its steps.
 * @example sink.write(runSection({ name: 'status', verdict: 'passed', steps: ['✓ 1. GET /_sim/state'], why: 'it opened no chat' }));
 */
export function runSection(r: ReportRun): string {
  const bad = runFailed(r);
  const failures = r.failures ?? [];
  // a run whose every step failed is told by its failures, with their reasons: listing the
  // steps again under them would only repeat each one's name
  const told =
    failures.length > 0 && r.steps.every((s) => failures.some((f) => s === `✗ ${f.step}`));
  const steps = told ? '' : r.steps.map((s) => `<li>${proseHtml(s)}</li>`).join('');
  const why = r.why === '' ? '' : `<p class="brief">${escapeHtml(r.why)}</p>`;
  return `<section class="conv run${bad ? ' has-bad' : ''}"><h3>${escapeHtml(r.name)} · <b class="${bad ? 'bad' : ''}">${r.verdict}</b></h3>${why}${failureList(failures)}${steps ? `<ul class="steps">${steps}</ul>` : ''}</section>\n`;
}

/** What a run a signal cut short says on a chat it drew: it stops where the run was stopped. */
const interruptedLine = (interrupted: string | undefined): string =>
  interrupted === undefined
    ? ''
    : `<ul class="violations"><li class="violation interrupted">${escapeHtml(interrupted)}: what it exchanged until then is drawn below</li></ul>`;

/**
 * One conversation's section: heading, its run's failed steps or interruption and its
 * violations (red, each violation linking to both exchanges), and the swimlane timeline.
 * @example sink.write(reportSection(conversation, checkConversation(conversation), 'redelivery'));
 */
export function reportSection(
  c: TracedConversation,
  violations: readonly Violation[],
  name?: string,
  maxRows = Infinity,
  lazy = false,
  run: Pick<ReportRun, 'failures' | 'interrupted'> = {},
  /** judged: the rules were checked; recording: the file `report` read, named in its hints */
  page: { judged: boolean; recording?: string } = { judged: true },
): string {
  const id = escapeHtml(`c-${c.run}-${c.chat}`);
  const first = c.spans[0]?.startMs ?? 0;
  const last = c.spans.reduce((end, s) => Math.max(end, s.endMs), first);
  const marked = new Set(violations.flatMap((v) => v.exchanges));
  const failures = run.failures ?? [];
  const badge =
    (failures.length > 0 ? '<span class="badge bad">failed</span> ' : '') +
    (run.interrupted === undefined ? '' : '<span class="badge bad">interrupted</span> ') +
    (violations.length > 0
      ? `<span class="badge bad">${violations.length} violation${violations.length === 1 ? '' : 's'}</span>`
      : page.judged
        ? '<span class="badge">invariants hold</span>'
        : '');
  const bad = violations.length > 0 || failures.length > 0 || run.interrupted !== undefined;
  const list =
    interruptedLine(run.interrupted) +
    failureList(failures) +
    (violations.length === 0
      ? ''
      : `<ul class="violations">${violations
          .map(
            (v) =>
              `<li class="violation" data-rule="${v.rule}"><b>${v.rule}</b> (spec ${escapeHtml(v.spec)}): ${proseHtml(v.message)} ${v.exchanges.map((n) => `<a href="#${id}-${n}">#${n}</a>`).join(' ')}</li>`,
          )
          .join('')}</ul>`);
  const head = `<div class="head"><span>time</span>${LANES.map((l) => `<span>${l}</span>`).join('')}</div>`;
  const rows = drawnRows(c, id, marked, maxRows, page.recording);
  const title = name ? `${escapeHtml(name)} · chat ${c.chat}` : `chat ${c.chat}`;
  return `<section class="conv${bad ? ' has-bad' : ''}${lazy ? ' lazy' : ''}" id="${id}" tabindex="0" aria-label="${title}"><h2>${title} ${runBadge(c.run)}<span class="badge">${exchangeCount(c)} · ${secs(last - first)}</span> ${badge}</h2>${list}<div class="lanes" role="table">${head}${rows}</div>${notKeptLine(c, page.recording)}</section>\n`;
}

/** A count of failures as a link to the first (the script focuses it; failed runs come first). */
const toBad = (html: string): string => `<a class="to-bad" href="#">${html}</a>`;

/**
 * The file's end: the run's summary and the script (the filter, j / k between conversations);
 * `runNoun` as runsNote's.
 */
export function reportTail(summary: ReportSummary, runNoun = 'run'): string {
  const m = summary.mutation;
  const mutation =
    m === undefined
      ? ''
      : `<span>mutation score <b>${m.score.toFixed(1)}%</b>${m.interrupted === undefined ? '' : ` of the mutants that finished`}</span><span><b>${m.killed}</b> killed</span><span><b>${m.timedOut}</b> timed out</span><span><b class="${m.survived > 0 ? 'bad' : ''}">${m.survived}</b> survived</span>${m.notExercised > 0 ? `<span><b>${m.notExercised}</b> never exercised</span>` : ''}`;
  // a mutation run without a recording, or a conform suite that opens no chat, has no
  // conversations to count; a page that judged no rule, no violations
  const violations = summary.unjudged
    ? ''
    : `<span>${summary.violations > 0 ? toBad(`<b class="bad">${summary.violations}</b> ${noun(summary.violations, 'invariant violation')}`) : `<b>0</b> invariant violations`}</span>`;
  const conversations =
    (m !== undefined || summary.chatless) && summary.conversations === 0
      ? ''
      : `<span><b>${summary.conversations}</b> ${noun(summary.conversations, 'conversation')}</span><span><b>${summary.exchanges}</b> ${noun(summary.exchanges, 'exchange')}${summary.notKept ? ` (${summary.notKept} more not kept)` : ''}</span>${violations}`;
  const runs = summary.runs
    ? `<span><b>${summary.runs}</b> ${noun(summary.runs, runNoun)} without a chat</span>`
    : '';
  // what the terminal warned of: a teammate who reads only the page must see it too
  const skippedLines = summary.skippedLines
    ? `<span><b class="bad">${summary.skippedLines}</b> ${noun(summary.skippedLines, 'line')} of the recording not a journal record (skipped: a cut or damaged file)</span>`
    : '';
  // a page of runs counts them as the terminal's closing line does: passed, failed, skipped
  const counted = summary.passed !== undefined;
  const passed = counted ? `<span><b>${summary.passed}</b> passed</span>` : '';
  const failed =
    summary.failed || counted
      ? summary.failed
        ? `<span>${toBad(`<b class="bad">${summary.failed}</b> failed`)}</span>`
        : `<span><b>0</b> failed</span>`
      : '';
  const skipped = counted ? `<span><b>${summary.skipped ?? 0}</b> skipped</span>` : '';
  const interrupted = summary.interrupted
    ? `<span><b class="bad">${summary.interrupted}</b> interrupted</span>`
    : '';
  // written last (the page is streamed), shown first: the script moves it under the title
  return `<p class="summary" id="run-summary">${mutation}${passed}${failed}${skipped}${interrupted}${conversations}${runs}${skippedLines}</p>${reportEnd()}`;
}

/** The closing tags and the script, after whatever a report put in its page. */
export function reportEnd(): string {
  return `</main><script>${SCRIPT}</script></body></html>\n`;
}

/** Text made safe inside HTML, for the other pieces of a report (`load --report`). */
export const htmlText = escapeHtml;
