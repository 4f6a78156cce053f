import type { ChatView } from './api.js';
import { breakableUrl, h, isSafeUrl, secs, type Child } from './dom.js';
import { deliveriesOf, type ConsoleStore, type Delivery, type SimEvent } from './store.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A chat with a visitor of the page script's widget, not a customer of a chat channel. */
const isWidgetChat = (chat: ChatView): boolean => chat.ext.widget !== undefined;

/**
 * The name the agent sees: sender name, else anonymous with the visitor number (spec 2.1); a
 * channel customer's sender.id beside it, as the platform's terminal names them (`customer c-1`):
 * `Anonymous #1` alone could not be told from the terminal's or the integrator's lines.
 * @example customerLabel(chat) // `Anonymous #1 (c-1)`
 */
export function customerLabel(chat: ChatView): string {
  const c = chat.customer;
  const name = str(c?.name);
  if (name !== undefined) return name;
  const anonymous = `Anonymous #${c?.visitorNumber ?? '?'}`;
  return c && !isWidgetChat(chat) ? `${anonymous} (${c.senderId})` : anonymous;
}

/** Who wrote a chat-log `visitor` line (spec 2.6): a channel's customer, or a page's visitor. */
const customerSide = (chat: ChatView): string => (isWidgetChat(chat) ? 'visitor' : 'customer');

/**
 * No chat yet: how to start one. Beside `svc-cli widget`'s demo page, by typing in it (a web
 * developer has no channel client); else with the channel URL to post to and a command that does.
 */
function emptyChatList(channelUrl: string | undefined, pageUrl: string | undefined): HTMLElement {
  if (pageUrl !== undefined && isSafeUrl(pageUrl)) {
    return h(
      'div',
      { class: 'empty' },
      h('p', {}, "No chats yet. A chat starts when a visitor writes in the demo page's chat box:"),
      h('a', { class: 'start-page', href: pageUrl }, breakableUrl(pageUrl)),
    );
  }
  if (channelUrl === undefined)
    return h('p', { class: 'empty' }, 'No chats yet. A chat starts with a customer message.');
  return h(
    'div',
    { class: 'empty' },
    h('p', {}, 'No chats yet. A chat starts with a customer message to the channel URL:'),
    h('code', { class: 'start-url' }, breakableUrl(channelUrl)),
    h('p', {}, 'for example:'),
    h(
      'code',
      { class: 'start-command' },
      `npx svc-cli send-text "hi" --channel-url ${channelUrl} --sender-id c-1`,
    ),
  );
}

/** The left column: every chat, newest activity first. */
export function renderChatList(store: ConsoleStore, select: (id: number) => void): HTMLElement {
  const chats = [...store.chats.values()].sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  if (chats.length === 0) return emptyChatList(store.channelUrl, store.pageUrl);
  return h(
    'ul',
    { class: 'chat-list' },
    ...chats.map((chat) => {
      const last = chat.lines.at(-1);
      return h(
        'li',
        {
          class: `chat-item mode-${chat.mode}${chat.id === store.selected ? ' selected' : ''}`,
          data: { chatId: String(chat.id) },
          onclick: () => select(chat.id),
        },
        h('span', { class: 'who' }, customerLabel(chat)),
        h('span', { class: `badge ${chat.mode}` }, chat.mode),
        // named visitors of several page loads look alike: the number tells them apart
        h(
          'span',
          { class: 'channel' },
          `${chat.ext.widget ? 'widget' : `channel ${chat.channelId}`}${str(chat.customer?.name) !== undefined ? ` · #${chat.customer?.visitorNumber ?? '?'}` : ''}`,
        ),
        h('span', { class: 'last' }, last?.text ?? ''),
      );
    }),
  );
}

/** spec 8: attempts at t = 0, 3, 6 s, the error at 9 s: a track 0..9 s with one mark per attempt. */
export function renderTimeline(delivery: Delivery): HTMLElement {
  if (delivery.pushedTo !== undefined) {
    return h(
      'div',
      { class: 'delivery pushed' },
      delivery.pushedTo > 0
        ? `pushed to the page (${delivery.pushedTo} listening)`
        : 'queued: the page is not listening',
    );
  }
  const span = 9000;
  const marks = delivery.attempts.map((a) =>
    h('span', {
      class: `mark ${a.outcome === 'accepted' ? 'ok' : 'fail'}`,
      style: `left:${Math.min(100, (a.offsetMs / span) * 100).toFixed(1)}%`,
      title: `attempt ${a.attempt}/${a.attempts} at +${secs(a.offsetMs)}: ${a.outcome === 'accepted' ? `HTTP ${a.status ?? ''}` : (a.reason ?? '')}`,
    }),
  );
  const labels = delivery.attempts.map((a) =>
    h(
      'li',
      { class: a.outcome === 'accepted' ? 'ok' : 'fail' },
      `${a.attempt}/${a.attempts} +${secs(a.offsetMs)} ${a.outcome === 'accepted' ? `✓ HTTP ${a.status ?? ''}` : `✗ ${a.reason ?? ''}`}`,
    ),
  );
  const done = delivery.done;
  const verdict = done
    ? h(
        'span',
        { class: `verdict ${done.result}` },
        done.result === 'delivered' ? 'delivered' : `${done.result}: ${done.agentNotice ?? ''}`,
      )
    : h('span', { class: 'verdict pending' }, 'delivering…');
  // ended with no attempt (no integrator URL): an empty 0-9 s scale says nothing
  if (done && delivery.attempts.length === 0) return h('div', { class: 'delivery' }, verdict);
  return h(
    'div',
    { class: 'delivery' },
    h(
      'div',
      { class: 'track' },
      h('span', { class: 'tick t3' }),
      h('span', { class: 'tick t6' }),
      ...marks,
    ),
    h(
      'div',
      { class: 'scale', title: 'protocol seconds since the first attempt (spec 8)' },
      h('span', { class: 's0' }, '0 s'),
      h('span', { class: 's3' }, '3 s'),
      h('span', { class: 's6' }, '6 s'),
      h('span', { class: 's9' }, '9 s'),
    ),
    h('ul', { class: 'attempts' }, ...labels),
    verdict,
  );
}

/**
 * A delivery that ended before this page opened: how it ended, from the chat line (the
 * attempts themselves are in the Journal tab).
 */
export function renderPastDelivery(past: {
  result: string;
  attempts: number;
  agentNotice?: string;
}): HTMLElement {
  const attempts = `${past.attempts} attempt${past.attempts === 1 ? '' : 's'}`;
  return h(
    'div',
    {
      class: 'delivery past',
      title: 'this delivery ended before the page opened; its attempts are in the Journal tab',
    },
    h(
      'span',
      { class: `verdict ${past.result}` },
      past.result === 'delivered'
        ? `delivered (${attempts})`
        : // as the live verdict reads; the notice names the attempts (spec 8)
          `${past.result}: ${past.agentNotice ?? `after ${attempts}`}`,
    ),
  );
}

/**
 * A media line (spec 2.4): `[photo]` and the file's name as a link to it (http(s) only; any
 * other link stays text), with its size; `[location]` and its coordinates.
 */
function renderMedia(type: string, media: ChatView['lines'][number]['media']): Child {
  if (media?.latitude !== undefined && media.longitude !== undefined)
    return `[${type}] ${media.latitude}, ${media.longitude}`;
  const name = media?.file_name ?? media?.file;
  if (!name) return `[${type}]`;
  const size = media?.file_size === undefined ? '' : ` (${media.file_size} bytes)`;
  const file = media?.file;
  // h() sets target and rel="noopener noreferrer" on an http(s) link only
  const link = file && isSafeUrl(file) ? h('a', { href: file }, name) : name;
  return h('span', {}, `[${type}] `, link, size);
}

/** The transcript: chat lines; each agent line with its delivery (tails of both aligned). */
export function renderTranscript(store: ConsoleStore, chat: ChatView): HTMLElement {
  const deliveries = deliveriesOf(store, chat.id);
  const agentLines = chat.lines.filter((l) => l.type === 'agent').length;
  let agentIndex = 0;
  const items = chat.lines.map((line) => {
    let timeline: Child = null;
    if (line.type === 'agent' || line.type === 'bot') {
      // by its id where the line has one; a delivery this page did not see shows how it ended
      const delivery = line.deliveryId
        ? store.deliveries.get(line.deliveryId)
        : line.type === 'agent'
          ? deliveries[deliveries.length - agentLines + agentIndex]
          : undefined;
      if (line.type === 'agent') agentIndex++;
      if (delivery) timeline = renderTimeline(delivery);
      else if (line.delivery) timeline = renderPastDelivery(line.delivery);
    }
    const text = line.text ?? renderMedia(line.kind.split('.').pop() ?? line.kind, line.media);
    // spec 6.2: the hook reply's contact_info is shown as if the visitor typed it; say where it
    // came from, or it reads as something the customer said
    // the chat log's `visitor` (spec 2.6) is the channel's customer, as the terminal says
    const who = line.type === 'visitor' ? customerSide(chat) : line.type;
    const from = line.kind === 'hook.contact_info' ? `${who} · from the CRM (contact_info)` : who;
    return h(
      'li',
      {
        class: `line ${line.type}`,
        ...(from === who
          ? {}
          : {
              title:
                "spec 6.2: the chat_accepted reply's contact_info, shown as if typed by the visitor",
            }),
      },
      h('span', { class: 'from' }, from),
      h('span', { class: 'text' }, text),
      timeline,
    );
  });
  if (store.typing.get(chat.id))
    items.push(h('li', { class: 'line typing' }, `${customerSide(chat)} is typing…`));
  return h('ol', { class: 'transcript' }, ...items);
}

const row = (label: string, value: string | number | undefined | null | false): Child =>
  value === undefined || value === null || value === '' || value === false
    ? null
    : h(
        'div',
        { class: 'field' },
        h('span', { class: 'key' }, label),
        h('span', { class: 'value' }, breakableUrl(String(value))),
      );

/** spec 4.5 setCustomData fields, in array order: title, bold key, content, link. */
/**
 * spec 4.5: the page's custom data comes with its tags neutralised (`&lt;b&gt;`); the agent
 * application shows that as the literal `<b>`, so the console, which inserts text, decodes it.
 */
const shownAsAgentSees = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');

function renderCustomData(fields: unknown, neutralised = false): Child {
  if (!Array.isArray(fields) || fields.length === 0) return null;
  return h(
    'div',
    { class: 'custom-data' },
    ...fields.map((f: Record<string, unknown>) => {
      const raw = str(f.content) ?? '';
      const content = neutralised ? shownAsAgentSees(raw) : raw;
      const link = str(f.link);
      return h(
        'div',
        { class: 'custom-field' },
        str(f.title) ? h('div', { class: 'title' }, str(f.title)) : null,
        str(f.key) ? h('b', {}, `${str(f.key)}: `) : null,
        link ? h('a', { href: link }, breakableUrl(content || link)) : breakableUrl(content),
      );
    }),
  );
}

/** The right column: the customer as the agent sees them, custom data, CRM data, activity. */
export function renderDetails(
  store: ConsoleStore,
  chat: ChatView,
  assign: () => void,
): HTMLElement {
  const c = chat.customer ?? { senderId: '?', visitorNumber: 0 };
  const widget = (chat.ext.widget ?? {}) as Record<string, unknown>;
  const hooks = chat.ext.hooks as Record<string, unknown> | undefined;
  const contact = hooks?.contactInfo as Record<string, unknown> | undefined;
  const crmLink = str(hooks?.crmLink);
  const others = Object.entries(chat.ext).filter(([k]) => k !== 'widget' && k !== 'hooks');
  const activity = store.activity.get(chat.id) ?? [];
  return h(
    'div',
    { class: 'details' },
    h('h3', {}, 'Customer'),
    row('id', c.senderId),
    row('visitor #', c.visitorNumber),
    ...['name', 'email', 'phone', 'description', 'invite', 'photo'].map((k) => row(k, str(c[k]))),
    row('contact info', str(widget.contactSource) && `from the ${str(widget.contactSource)}`),
    row('user token', str(c.userToken)),
    h('h3', {}, 'Custom data'),
    renderCustomData(c.customData, true) ?? h('p', { class: 'empty' }, 'none'),
    hooks ? h('h3', {}, 'CRM (hook reply)') : null,
    // spec 6.2, as the terminal shows them: the assign button before the custom fields,
    // crm_link under them
    hooks?.enableAssign === true
      ? h(
          'button',
          {
            class: 'assign',
            onclick: assign,
            title: crmLink ? `binds the chat to ${crmLink}` : 'no crm_link was given',
          },
          'Bind to CRM card',
        )
      : null,
    hooks ? renderCustomData(hooks.customData) : null,
    contact
      ? row(
          'CRM contact',
          [str(contact.name), str(contact.phone), str(contact.email)].filter(Boolean).join(', '),
        )
      : null,
    crmLink
      ? h(
          'div',
          { class: 'crm-link' },
          h('a', { href: crmLink }, 'Open in CRM'),
          ' ',
          h('span', { class: 'url' }, breakableUrl(crmLink)),
        )
      : null,
    hooks ? row('assigned to', str(hooks.assignedTo)) : null,
    ...others.map(([key, value]) =>
      h('details', {}, h('summary', {}, key), h('pre', {}, JSON.stringify(value, null, 2))),
    ),
    h('h3', {}, 'Activity'),
    activity.length > ACTIVITY_SHOWN
      ? h(
          'p',
          { class: 'activity-hidden' },
          `${activity.length - ACTIVITY_SHOWN} earlier not shown: all are in the Events tab`,
        )
      : null,
    h('ol', { class: 'activity' }, ...activity.slice(-ACTIVITY_SHOWN).map(renderActivity)),
  );
}

/** The newest events a chat's Activity lists; the Events tab has the rest. */
const ACTIVITY_SHOWN = 30;

/** The few fields that say what an event was, in a readable line. */
export function summarizeEvent(rest: Record<string, unknown>): string {
  const parts: string[] = [];
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  if (text(rest.chatId)) parts.push(`chat ${text(rest.chatId)}`);
  // a widget visitor's events (interface C) say which visitor, as the terminal does
  if (typeof rest.connected === 'boolean')
    parts.push(rest.connected ? 'page connected' : 'page left');
  if (text(rest.visitorNumber)) parts.push(`visitor #${text(rest.visitorNumber)}`);
  for (const key of [
    'customerId',
    'what',
    'event',
    'target',
    'result',
    'outcome',
    'status',
    'action',
  ]) {
    const v = text(rest[key]);
    if (v !== undefined) parts.push(key === 'customerId' || key === 'what' ? v : `${key} ${v}`);
  }
  if (typeof rest.attempt === 'number') parts.push(`attempt ${rest.attempt}`);
  // an agent's or customer's typing notice (an agent-message of kind channel.agent.typing has
  // no text: without this its row read as an empty message)
  if (typeof rest.typing === 'boolean') parts.push(rest.typing ? 'typing' : 'stopped typing');
  const message = rest.message;
  const said =
    text(rest.text) ??
    (message !== null && typeof message === 'object'
      ? text((message as Record<string, unknown>).text)
      : text(message));
  if (said !== undefined) parts.push(`"${said.length > 80 ? `${said.slice(0, 79)}…` : said}"`);
  const reason = text(rest.reason) ?? text(rest.agentNotice);
  if (reason !== undefined) parts.push(reason);
  return parts.join(' · ');
}

/**
 * Any event, known or not (bot hand-overs, hooks ...): time, type and a readable summary;
 * the whole event, pretty-printed, one click away.
 */
export function renderActivity(event: SimEvent): HTMLElement {
  const { type, protocolMs, ...rest } = event;
  return h(
    'li',
    { class: `event ${type}` },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'at' }, typeof protocolMs === 'number' ? secs(protocolMs) : ''),
        h('span', { class: 'type' }, type),
        h('span', { class: 'rest' }, summarizeEvent(rest)),
      ),
      h('pre', {}, JSON.stringify(rest, null, 2)),
    ),
  );
}
