/**
 * The Timeline tab: the selected chat's exchanges as the swimlanes `svc-cli report` draws
 * (one lane per party, arrows in protocol time, attempts and redelivery gaps, broken
 * invariants in red), followed live. The spans, links and invariants are src/trace's own
 * (src/trace/rules.ts, links.ts, span.ts); the markup and its styles are html.ts's
 * `reportSection` and `timelineCss`, which escape every text they put in.
 */
import type { ExchangeRecord } from '../../journal/record.js';
import { reportSection, timelineCss } from '../../trace/html.js';
import { linkConversation } from '../../trace/links.js';
import { checkConversation, createChatSorter } from '../../trace/rules.js';
import type { TraceSpan } from '../../trace/span.js';
import { api } from './api.js';
import { fill, h } from './dom.js';

/** Exchanges kept per chat (the oldest go first); the journal itself keeps its own. */
const KEEP = 5_000;
/** Rows drawn per chat; past it the section says how many were left out (as a report does). */
const MAX_ROWS = 200;
const SCOPE = '.trace-timeline';

export interface TimelineView {
  /** fetches the exchanges recorded since the last call, then draws `chatId` */
  refresh(chatId: number | undefined): Promise<void>;
  /** forgets every exchange: the next refresh reads the journal from its start (a restart) */
  reset(): void;
}

/** Draws into `host`; the styles go in once, scoped to the tab. */
export function createTimelineView(host: HTMLElement): TimelineView {
  host.classList.add(SCOPE.slice(1));
  const style = document.createElement('style');
  style.textContent = timelineCss(SCOPE);
  document.head.append(style);
  const body = h('div', { class: 'timeline-body' });
  fill(host, body);
  // each record becomes a span once, put in its chat (the newest run's: a console reloaded
  // after a restart reads one journal); a draw links and checks the selected chat alone
  let chatOf = createChatSorter();
  const chats = new Map<number, { run: string; spans: TraceSpan[] }>();
  const changed = new Set<number>();
  let lastSeq = 0;
  let drawn = '';
  let drawnChat: number | undefined | null = null; // null: nothing drawn yet

  const add = (record: ExchangeRecord): void => {
    const span = chatOf(record);
    if (span?.chat === undefined) return;
    let chat = chats.get(span.chat);
    if (!chat || chat.run !== span.run) chats.set(span.chat, (chat = { run: span.run, spans: [] }));
    chat.spans.push(span);
    if (chat.spans.length > KEEP) chat.spans.splice(0, chat.spans.length - KEEP);
    changed.add(span.chat);
  };

  const draw = (chatId: number | undefined): void => {
    const chat = chatId === undefined ? undefined : chats.get(chatId);
    let html: string;
    if (chatId === undefined) html = '<p class="empty">Select a chat: its exchanges show here.</p>';
    else if (!chat) html = `<p class="empty">No exchanges of chat ${chatId} recorded yet.</p>`;
    else {
      // linking sets each span's cause: a copy, so the next draw starts from the records
      const spans = linkConversation(chat.spans.map((span) => ({ ...span })));
      const conversation = { run: chat.run, chat: chatId, spans, dropped: 0 };
      html = reportSection(conversation, checkConversation(conversation), undefined, MAX_ROWS);
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
    reset() {
      chatOf = createChatSorter();
      chats.clear();
      changed.clear();
      lastSeq = 0;
      drawnChat = null;
    },
    async refresh(chatId) {
      const page = await api.journalSince(lastSeq);
      // two refreshes can overlap (the poll and a click on a slow machine) and read from the
      // same seq: a record the other one added already would be drawn twice
      const fresh = (page.entries as unknown as ExchangeRecord[]).filter((r) => r.seq > lastSeq);
      for (const record of fresh) add(record);
      if (fresh.length > 0) lastSeq = fresh.at(-1)!.seq;
      // nothing new for the chat drawn: the links and rules need not run again
      if (chatId === drawnChat && (chatId === undefined || !changed.has(chatId))) return;
      if (chatId !== undefined) changed.delete(chatId);
      drawnChat = chatId;
      draw(chatId);
    },
  };
}
