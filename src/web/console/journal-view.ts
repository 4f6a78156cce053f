import { api, type JournalEntry, type RecordingState } from './api.js';
import { fill, h, prettyBody, refill, type Child } from './dom.js';
import { isPushRecord } from '../../journal/record.js';

/** A violation's text with its "(spec N.N)" linked to that section of the contract page. */
function cited(text: string): Child[] {
  const match = /\(spec (\d+(?:\.\d+)?)[^)]*\)/.exec(text);
  if (!match) return [text];
  const link = h(
    'a',
    { href: `/_sim/docs#spec-${match[1]!}`, title: 'the contract section' },
    match[0],
  );
  return [text.slice(0, match.index), link, text.slice(match.index + match[0].length)];
}

/** What an exchange was: its contract kind, or for a hook its event. */
export function kindOf(entry: JournalEntry): string {
  if (entry.kind) return entry.kind;
  if (entry.iface === 'control') {
    try {
      return `control ${new URL(entry.request.url, 'http://x').pathname.replace(/^\/_sim\//, '')}`;
    } catch {
      return 'control';
    }
  }
  return entry.iface;
}

/**
 * The table's url column: the path of a request to the simulator itself (`ownHost`, the host
 * the console came from: the same on every such row), the host and path of one it sent
 * elsewhere (an integrator, a bot, a hook receiver). The host in front left a narrow column
 * showing `127…` and no path.
 * @example urlColumnText('http://127.0.0.1:8800/_sim/widget/events', '127.0.0.1:8800') // '/_sim/widget/events'
 */
export function urlColumnText(url: string, ownHost: string | undefined): string {
  try {
    const u = new URL(url);
    return u.host === ownHost ? u.pathname : `${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

/**
 * The status column's text: the reply's status, `sse` for a push on the event stream (no reply
 * of its own), else why the exchange failed. The filter matches what the column shows.
 */
const statusOf = (e: JournalEntry): string | number =>
  e.response ? e.response.status : isPushRecord(e) ? 'sse' : (e.failure?.reason ?? '');

/**
 * Whether an entry matches the filter text (kind, url, iface, status, method): every word must
 * match. A status word (`500`) or class (`5xx`) matches the reply's status only: as a substring
 * of the URL it matched every exchange with an integrator on port 5000 (Flask's default) or
 * 35001, so "hook 500" showed the deliveries that succeeded too.
 */
export function matchesFilter(entry: JournalEntry, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  const status = String(entry.response?.status ?? '');
  const hay = [kindOf(entry), entry.request.url, entry.request.method, entry.iface, statusOf(entry)]
    .join(' ')
    .toLowerCase();
  return needle.split(/\s+/).every((word) => {
    if (/^[1-5]\d\d$/.test(word)) return status === word;
    if (/^[1-5]xx$/.test(word)) return status.startsWith(word[0]!);
    return hay.includes(word);
  });
}

/**
 * One exchange in the detail pane: its headers and bodies, and Resend (POST
 * /_sim/journal/:seq/resend) with its result right under the button; `resent` after a resend.
 */
function showDetail(
  detail: HTMLElement,
  entry: JournalEntry,
  result: HTMLElement | undefined,
  resent: () => void,
  back: () => void,
): void {
  const resend = h('button', { class: 'resend' }, 'Resend');
  resend.addEventListener('click', () => {
    resend.setAttribute('disabled', '');
    api
      .resend(entry.seq)
      .then((r) =>
        showDetail(
          detail,
          entry,
          h(
            'div',
            { class: 'resent' },
            h(
              'b',
              {},
              r.failure ? `resent: ${r.failure.message}` : `resent: HTTP ${r.status ?? ''}`,
            ),
            h('pre', {}, prettyBody(r.body)),
          ),
          resent,
          back,
        ),
      )
      .catch((error: unknown) =>
        showDetail(detail, entry, h('div', { class: 'error' }, String(error)), resent, back),
      )
      .finally(resent);
  });
  // an event pushed to a widget page over its event stream: no reply, nothing to resend
  const push = isPushRecord(entry);
  const headers = Object.entries(entry.request.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  fill(
    detail,
    // shown only where the detail sits under the list (console.css, a phone)
    h('button', { class: 'to-list', type: 'button', onclick: back }, '↑ Back to the list'),
    h('h3', {}, `#${entry.seq} ${entry.request.method} ${entry.request.url}`),
    h(
      'div',
      { class: 'meta' },
      `${entry.at} · ${entry.iface} · ${entry.direction}${entry.kind ? ` · ${entry.kind}` : ''}${entry.attempt ? ` · attempt ${entry.attempt}` : ''}`,
    ),
    push ? null : h('div', { class: 'resend-row' }, resend, result),
    entry.verdict && !entry.verdict.ok
      ? h('ul', { class: 'errors' }, ...entry.verdict.errors.map((e) => h('li', {}, ...cited(e))))
      : null,
    entry.notes?.length ? h('div', { class: 'notes' }, entry.notes.join(' · ')) : null,
    h('h4', {}, push ? "Pushed event (server-sent, on the page's event stream)" : 'Request'),
    // a pushed event has no HTTP headers: no empty box for them
    headers ? h('pre', {}, headers) : null,
    h('pre', {}, prettyBody(entry.request.body)),
    push
      ? null
      : h(
          'h4',
          {},
          entry.response
            ? `Response ${entry.response.status}`
            : `No response: ${entry.failure?.reason ?? ''}`,
        ),
    push
      ? null
      : h(
          'pre',
          {},
          entry.response ? prettyBody(entry.response.body) : (entry.failure?.message ?? ''),
        ),
  );
}

/**
 * The journal tab: every exchange (GET /_sim/journal) with its kind, filterable; the svc
 * control API's own traffic (the console's replies, closes, agents) hidden unless asked for;
 * one exchange's headers and bodies; Resend (POST /_sim/journal/:seq/resend) with its result
 * right under the button.
 */
export function createJournalView(list: HTMLElement, detail: HTMLElement) {
  let entries: JournalEntry[] = [];
  let selected: number | undefined;
  let filterText = '';
  let showControl = false;
  const filterInput = h('input', {
    class: 'journal-filter',
    type: 'search',
    placeholder: 'filter: kind, url, status… (e.g. hook 500, agent 5xx)',
  });
  filterInput.addEventListener('input', () => {
    filterText = filterInput.value;
    render();
  });
  const controlToggle = h('input', { type: 'checkbox' });
  controlToggle.addEventListener('change', () => {
    showControl = controlToggle.checked;
    render();
  });
  const toolbar = h(
    'div',
    { class: 'journal-toolbar' },
    filterInput,
    h('label', {}, controlToggle, ' svc control traffic'),
    h('span', { class: 'count' }),
    h('span', { class: 'recording' }),
  );
  // the toolbar stays put (typing keeps the focus); only the table is drawn again
  const tableHost = h('div', { class: 'journal-rows' });
  fill(list, toolbar, tableHost);

  /**
   * The detail under the list rather than beside it (a phone: the two panes are one column),
   * where a row picked near the top of a long list opened its detail out of sight, below
   * every other row.
   */
  const stacked = (): boolean =>
    detail.getBoundingClientRect().top >= list.getBoundingClientRect().bottom - 1;
  /** From the detail back up to its row, where the list was being read. */
  const backToList = (): void => {
    const row = list.querySelector('tr.selected') ?? list;
    row.scrollIntoView({ block: 'center' });
  };
  const renderDetail = (entry: JournalEntry, result?: HTMLElement): void =>
    showDetail(detail, entry, result, () => void refresh(), backToList);

  const render = (): void => {
    const shown = entries.filter(
      (e) => (showControl || e.iface !== 'control') && matchesFilter(e, filterText),
    );
    const count = toolbar.querySelector('.count');
    if (count) count.textContent = `${shown.length} of ${entries.length}`;
    const rows = [...shown].reverse().map((e) =>
      h(
        'tr',
        {
          class: `${e.seq === selected ? 'selected ' : ''}${e.verdict && !e.verdict.ok ? 'bad' : ''}`,
          data: { seq: String(e.seq) },
          onclick: () => {
            selected = e.seq;
            render();
            // the row may be older than the last refresh: the detail shows the entry as it is now
            renderDetail(entries.find((now) => now.seq === e.seq) ?? e);
            if (stacked()) detail.scrollIntoView({ block: 'start' });
          },
        },
        h('td', {}, e.seq),
        h('td', {}, e.at.slice(11, 23)),
        // a narrow console may break the kind after a dot (<wbr>), never inside a word
        h(
          'td',
          { class: 'kind' },
          ...kindOf(e)
            .split(/(?<=\.)/)
            .flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part])),
        ),
        h('td', {}, e.direction === 'in' ? '←' : '→'),
        h('td', {}, e.request.method),
        // the status before the URL: the URL is cut to the column, the status must stay seen
        h('td', { class: 'status' }, statusOf(e)),
        // a narrow console wraps the url: after a slash where it can (<wbr>), else anywhere
        h(
          'td',
          { class: 'url', title: e.request.url },
          ...urlColumnText(e.request.url, location.host)
            .split(/(?<=\/)/)
            .flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part])),
        ),
      ),
    );
    // refill: a refresh that changes no row leaves them in place (a click on one survives it)
    refill(
      tableHost,
      h(
        'table',
        { class: 'journal' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['#', 'time', 'kind', '', 'method', 'status', 'url'].map((t) => h('th', {}, t)),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    );
  };

  /** Where the exchanges are recorded, and a stopped recording in plain words. */
  const showRecording = (recording: RecordingState | undefined): void => {
    const span = toolbar.querySelector<HTMLElement>('.recording');
    if (!span) return;
    span.classList.toggle('stopped', recording?.state === 'stopped');
    span.textContent =
      recording?.state === 'stopped'
        ? `recording stopped: ${recording.failure?.reason ?? 'a write failed'} after ${recording.written} records (${recording.file ?? ''}); ${recording.notWritten} not written`
        : recording?.state === 'recording'
          ? `recording to ${recording.file ?? ''}`
          : '';
  };
  const refresh = async (): Promise<void> => {
    const page = await api.journal();
    entries = page.entries;
    showRecording(page.recording);
    render();
  };

  return { refresh };
}
