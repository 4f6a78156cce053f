/**
 * The Timeline tab: the selected chat's exchanges as the swimlanes `svc-cli report` draws
 * (one lane per party, arrows in protocol time, attempts and redelivery gaps, broken
 * invariants in red), followed live. The spans, links and invariants are src/trace's own
 * (src/trace/rules.ts, links.ts, span.ts); the markup and its styles are html.ts's
 * `reportSection` and `timelineCss`, which escape every text they put in.
 */
import type { ExchangeRecord } from '../../journal/record.js';
import { reportSection, timelineCss } from '../../trace/html.js';
import { checkConversation, conversationsOf } from '../../trace/rules.js';
import { api } from './api.js';
import { fill, h } from './dom.js';

/** Exchanges kept in the page (the oldest go first); the journal itself keeps its own. */
const KEEP = 20_000;
/** Rows drawn per chat; past it the section says how many were left out (as a report does). */
const MAX_ROWS = 200;
const SCOPE = '.trace-timeline';

export interface TimelineView {
  /** fetches the exchanges recorded since the last call, then draws `chatId` */
  refresh(chatId: number | undefined): Promise<void>;
}

/** Draws into `host`; the styles go in once, scoped to the tab. */
export function createTimelineView(host: HTMLElement): TimelineView {
  host.classList.add(SCOPE.slice(1));
  const style = document.createElement('style');
  style.textContent = timelineCss(SCOPE);
  document.head.append(style);
  const body = h('div', { class: 'timeline-body' });
  fill(host, body);
  let records: ExchangeRecord[] = [];
  let lastSeq = 0;
  let drawn = '';
  let drawnChat: number | undefined;
  let changed = true;

  const draw = (chatId: number | undefined): void => {
    let html: string;
    if (chatId === undefined) html = '<p class="empty">Select a chat: its exchanges show here.</p>';
    else {
      // the chat of the newest run: a console reloaded after a restart reads one journal
      const conversation = conversationsOf(records)
        .filter((c) => c.chat === chatId)
        .at(-1);
      html = conversation
        ? reportSection(
            { ...conversation, dropped: 0 },
            checkConversation(conversation),
            undefined,
            MAX_ROWS,
          )
        : `<p class="empty">No exchanges of chat ${chatId} recorded yet.</p>`;
    }
    if (html === drawn) return; // unchanged: keep the focus and the scroll where they are
    drawn = html;
    const template = document.createElement('template');
    template.innerHTML = html; // html.ts escapes every text: chat content stays text
    const focused = document.activeElement?.id;
    body.replaceChildren(template.content);
    if (focused) document.getElementById(focused)?.focus();
  };

  return {
    async refresh(chatId) {
      const page = await api.journalSince(lastSeq);
      const fresh = page.entries as unknown as ExchangeRecord[];
      if (fresh.length > 0) {
        lastSeq = fresh.at(-1)!.seq;
        records = records.concat(fresh);
        if (records.length > KEEP) records = records.slice(records.length - KEEP);
        changed = true;
      }
      // nothing new for the chat drawn: the spans, links and rules need not run again
      if (!changed && chatId === drawnChat) return;
      changed = false;
      drawnChat = chatId;
      draw(chatId);
    },
  };
}
