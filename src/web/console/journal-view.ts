import { api, type JournalEntry } from './api.js';
import { fill, h, prettyBody } from './dom.js';

/**
 * The journal tab: every exchange (GET /_sim/journal) with its request and response bodies;
 * one can be sent again (POST /_sim/journal/:seq/resend).
 */
export function createJournalView(list: HTMLElement, detail: HTMLElement) {
  let entries: JournalEntry[] = [];
  let selected: number | undefined;

  const path = (url: string): string => {
    try {
      const u = new URL(url);
      return `${u.host}${u.pathname}`;
    } catch {
      return url;
    }
  };

  const renderDetail = (entry: JournalEntry, result?: HTMLElement): void => {
    const resend = h('button', { class: 'resend' }, 'Resend');
    resend.addEventListener('click', () => {
      resend.setAttribute('disabled', '');
      api
        .resend(entry.seq)
        .then((r) =>
          renderDetail(
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
          ),
        )
        .catch((error: unknown) => renderDetail(entry, h('div', { class: 'error' }, String(error))))
        .finally(() => void refresh());
    });
    fill(
      detail,
      h('h3', {}, `#${entry.seq} ${entry.request.method} ${entry.request.url}`),
      h(
        'div',
        { class: 'meta' },
        `${entry.at} · ${entry.iface} · ${entry.direction}${entry.kind ? ` · ${entry.kind}` : ''}${entry.attempt ? ` · attempt ${entry.attempt}` : ''}`,
      ),
      entry.verdict && !entry.verdict.ok
        ? h('ul', { class: 'errors' }, ...entry.verdict.errors.map((e) => h('li', {}, e)))
        : null,
      entry.notes?.length ? h('div', { class: 'notes' }, entry.notes.join(' · ')) : null,
      h('h4', {}, 'Request'),
      h(
        'pre',
        {},
        Object.entries(entry.request.headers ?? {})
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n'),
      ),
      h('pre', {}, prettyBody(entry.request.body)),
      h(
        'h4',
        {},
        entry.response
          ? `Response ${entry.response.status}`
          : `No response: ${entry.failure?.reason ?? ''}`,
      ),
      h(
        'pre',
        {},
        entry.response ? prettyBody(entry.response.body) : (entry.failure?.message ?? ''),
      ),
      resend,
      result,
    );
  };

  const render = (): void => {
    const rows = [...entries].reverse().map((e) =>
      h(
        'tr',
        {
          class: `${e.seq === selected ? 'selected ' : ''}${e.verdict && !e.verdict.ok ? 'bad' : ''}`,
          onclick: () => {
            selected = e.seq;
            render();
            renderDetail(e);
          },
        },
        h('td', {}, e.seq),
        h('td', {}, e.at.slice(11, 23)),
        h('td', {}, e.iface),
        h('td', {}, e.direction === 'in' ? '←' : '→'),
        h('td', {}, e.request.method),
        h('td', { class: 'url' }, path(e.request.url)),
        h('td', {}, e.response ? e.response.status : (e.failure?.reason ?? '')),
      ),
    );
    fill(
      list,
      h(
        'table',
        { class: 'journal' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['#', 'time', 'iface', '', 'method', 'url', 'status'].map((t) => h('th', {}, t)),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
    );
  };

  const refresh = async (): Promise<void> => {
    entries = (await api.journal()).entries;
    render();
  };

  return { refresh };
}
