/**
 * The agent web console (`svc-cli platform --web`, served at /_sim/console/): the chats of
 * the simulator live from GET /_sim/events, the agent's actions through the control API.
 */
import { api, ControlApiError, eventsUrl } from './api.js';
import {
  customerLabel,
  renderActivity,
  renderChatList,
  renderDetails,
  renderTranscript,
} from './chat-view.js';
import { byId, fill, h, refill } from './dom.js';
import { createJournalView } from './journal-view.js';
import { applyEvent, createStore, type SimEvent } from './store.js';
import { createTimelineView } from './timeline-view.js';

const store = createStore();
const ui = {
  status: byId('status'),
  agents: byId<HTMLButtonElement>('agents'),
  chatList: byId('chat-list'),
  chatHead: byId('chat-head'),
  transcript: byId('transcript'),
  details: byId('details'),
  reply: byId<HTMLFormElement>('reply'),
  replyText: byId<HTMLInputElement>('reply-text'),
  close: byId<HTMLButtonElement>('close-chat'),
  events: byId('event-log'),
  journal: createJournalView(byId('journal-list'), byId('journal-detail')),
  timeline: createTimelineView(byId('timeline')),
  timelineChat: byId<HTMLSelectElement>('timeline-chat'),
  error: byId('error'),
};

const showError = (error: unknown): void => {
  ui.error.textContent = error instanceof Error ? error.message : String(error);
};

/** The chat the transcript shows. */
let shownChat: number | undefined;

function render(): void {
  ui.status.textContent = store.connected ? 'live' : everOpen ? 'reconnecting…' : 'connecting…';
  ui.status.className = store.connected ? 'live' : 'down';
  ui.agents.textContent = store.agentsOnline
    ? 'Agents online — go offline'
    : 'Agents offline — go online';
  ui.agents.className = store.agentsOnline ? 'online' : 'offline';
  // refill: what did not change stays, so a click on it while events arrive is not lost
  refill(ui.chatList, renderChatList(store, select));
  const chat = store.selected === undefined ? undefined : store.chats.get(store.selected);
  ui.reply.hidden = !chat || chat.mode === 'closed';
  ui.close.hidden = !chat || chat.mode === 'closed';
  if (!chat) {
    refill(ui.chatHead, 'Select a chat');
    refill(ui.transcript);
    refill(ui.details);
    shownChat = undefined;
  } else {
    refill(
      ui.chatHead,
      h('b', {}, customerLabel(chat)),
      ` · chat ${chat.id} · ${chat.mode} `,
      h(
        'button',
        { class: 'to-timeline', type: 'button', onclick: () => showTab('timeline-tab') },
        'Timeline',
      ),
    );
    // the newest line in sight for a chat just opened, and for one read at its end; one
    // scrolled back to read stays where it is
    const t = ui.transcript;
    const atEnd = t.scrollHeight - t.scrollTop - t.clientHeight < 24;
    if (refill(t, renderTranscript(store, chat)) && (atEnd || shownChat !== chat.id))
      t.scrollTop = t.scrollHeight;
    shownChat = chat.id;
    refill(
      ui.details,
      renderDetails(store, chat, () => void api.assign(chat.id).catch(showError)),
    );
  }
  refill(ui.events, h('ol', {}, ...store.log.slice(-200).reverse().map(renderActivity)));
  renderTimelineChats();
}

/** The Timeline tab's chat picker: every chat, the selected one chosen. */
function renderTimelineChats(): void {
  const options = [...store.chats.values()].map((c) => {
    const option = h('option', { value: String(c.id) }, `${c.id} · ${customerLabel(c)}`);
    option.selected = c.id === store.selected;
    return option;
  });
  const focused = document.activeElement === ui.timelineChat;
  if (!focused) fill(ui.timelineChat, ...options); // redrawn while open, a picker would close
}

function select(id: number): void {
  store.selected = id;
  render();
  followTimeline();
}

/** Fetches the chats named by events, once per batch. */
const stale = new Set<number>();
let pending = false;
function refreshChat(id: number): void {
  stale.add(id);
  if (pending) return;
  pending = true;
  setTimeout(() => {
    pending = false;
    const ids = [...stale];
    stale.clear();
    void Promise.all(ids.map((chatId) => api.chat(chatId).then((c) => store.chats.set(c.id, c))))
      .then(() => {
        if (store.selected === undefined) store.selected = ids[0];
        render();
      })
      .catch(showError);
  }, 0);
}

/** Wall ms before the next try while the simulator is down: doubled each time, up to 5 s. */
let retryMs = 250;
let source: EventSource | undefined;
let everOpen = false;

/**
 * Follows GET /_sim/events. When the stream breaks (the simulator stopped or restarted) the
 * page says "reconnecting…" and opens a new stream until one answers: a fresh one, with no
 * Last-Event-ID (a restarted simulator numbers its events anew), so its history rebuilds the
 * chats as a reload would, and the journal and timeline are read again from their start.
 */
function connect(): void {
  // plain: every event type, known or not; history: the events before this page loaded (a
  // reload, a console opened late, a simulator restarted)
  const stream = new EventSource(eventsUrl('plain=1&history=1'));
  source = stream;
  stream.onopen = () => {
    retryMs = 250;
    if (everOpen) resync();
    everOpen = true;
    store.connected = true;
    void load().catch(showError);
  };
  stream.onerror = () => {
    if (source !== stream) return;
    stream.close();
    source = undefined;
    store.connected = false;
    render();
    setTimeout(connect, retryMs);
    retryMs = Math.min(5_000, retryMs * 2);
  };
  stream.onmessage = (message: MessageEvent<string>) => handle(message.data);
}

/** A new stream after a break: forget what the last one told (its history comes again). */
function resync(): void {
  const selected = store.selected;
  Object.assign(store, createStore(), { selected });
  ui.timeline.reset();
  ui.error.textContent = '';
  if (!byId('journal-tab').hidden) void ui.journal.refresh().catch(showError);
}

let journalTimer: ReturnType<typeof setTimeout> | undefined;
/** While the journal tab is open it follows the exchanges, at most every 200 ms. */
function followJournal(): void {
  if (byId('journal-tab').hidden || journalTimer !== undefined || !store.connected) return;
  journalTimer = setTimeout(() => {
    journalTimer = undefined;
    void ui.journal.refresh().catch(showError);
  }, 200);
}

let timelineTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * While the Timeline tab is open it follows the selected chat's exchanges: after each event
 * (at most every 200 ms), and every second besides (an exchange can be recorded just after
 * the event that told of it).
 */
function followTimeline(): void {
  if (byId('timeline-tab').hidden || timelineTimer !== undefined || !store.connected) return;
  timelineTimer = setTimeout(() => {
    timelineTimer = undefined;
    void ui.timeline.refresh(store.selected).catch(showError);
  }, 200);
}
setInterval(followTimeline, 1000);

function handle(data: string): void {
  const event = JSON.parse(data) as SimEvent;
  const chatId = applyEvent(store, event);
  if (chatId !== undefined) refreshChat(chatId);
  else render();
  followJournal();
  followTimeline();
}

async function load(): Promise<void> {
  const [state, { chats }, context] = await Promise.all([api.state(), api.chats(), api.context()]);
  store.agentsOnline = state.agentsOnline;
  store.channelUrl = state.channels?.[0]?.url;
  store.pageUrl = context.pageUrl;
  for (const chat of chats) store.chats.set(chat.id, chat);
  // a chat selected before a restart may be gone: then the newest one
  if (store.selected === undefined || !store.chats.has(store.selected))
    store.selected = chats.at(-1)?.id;
  render();
  followTimeline();
}

/**
 * A typing notice that did not go: with the simulator unreachable, the status already says
 * so, and a raw "Failed to fetch" would hide what the agent needs to read (a reply not sent).
 */
const showTypingError = (error: unknown): void => {
  if (!(error instanceof ControlApiError && error.code === 'unreachable')) showError(error);
};

let typing = false;
const stopTyping = (): void => {
  if (!typing || store.selected === undefined) return;
  typing = false;
  void api.typing(store.selected, false).catch(showTypingError);
};
ui.replyText.addEventListener('input', () => {
  if (typing || store.selected === undefined || ui.replyText.value === '') return;
  typing = true; // spec 2.3: typein at the start of typing, typeout at its end
  void api.typing(store.selected, true).catch(showTypingError);
});
ui.replyText.addEventListener('blur', stopTyping);

/** A reply is on its way: a second Enter meanwhile would send it twice. */
let sending = false;
/**
 * The draft stays in the input until the simulator has taken it: a reply that fails is kept,
 * with what went wrong, for the agent to send again.
 */
async function sendReply(chatId: number, text: string): Promise<void> {
  sending = true;
  try {
    await api.say(chatId, text);
    // what the agent typed since pressing Enter is a new draft: keep it
    if (ui.replyText.value.trim() === text) ui.replyText.value = '';
    if (ui.error.textContent?.startsWith('Not sent:')) ui.error.textContent = '';
  } catch (error) {
    const why =
      error instanceof ControlApiError && error.code === 'unreachable'
        ? 'the simulator is unreachable'
        : `the simulator answered "${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}"`;
    ui.error.textContent = `Not sent: ${why}; your reply is kept. Press Enter to send it again.`;
  } finally {
    sending = false;
  }
}
ui.reply.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = ui.replyText.value.trim();
  if (!text || store.selected === undefined || sending) return;
  stopTyping();
  void sendReply(store.selected, text);
});
ui.close.addEventListener('click', () => {
  if (store.selected !== undefined) api.close(store.selected).catch(showError);
});
ui.timelineChat.addEventListener('change', () => select(Number(ui.timelineChat.value)));
ui.agents.addEventListener('click', () => void api.agents(!store.agentsOnline).catch(showError));
/** Shows one tab (`chats-tab`, `timeline-tab` ...) and marks its button in the nav. */
function showTab(id: string): void {
  document.querySelectorAll<HTMLElement>('.tab').forEach((panel) => {
    panel.hidden = panel.id !== id;
  });
  document.querySelectorAll<HTMLButtonElement>('nav button[data-tab]').forEach((button) => {
    button.classList.toggle('active', button.dataset.tab === id);
  });
  if (id === 'journal-tab') void ui.journal.refresh().catch(showError);
  if (id === 'timeline-tab') void ui.timeline.refresh(store.selected).catch(showError);
}
document.querySelectorAll<HTMLButtonElement>('nav button[data-tab]').forEach((tab) => {
  tab.addEventListener('click', () => showTab(tab.dataset.tab ?? 'chats-tab'));
});

render();
connect();
