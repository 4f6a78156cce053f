/**
 * The demo page of `svc-cli widget`: a shop page whose chat box is drawn from the double's
 * state (`window.svc_widget`); every button calls `svc_api` as a site's own code would.
 * All text goes in with textContent.
 */
import type { SvcApi, Widget } from '../../widget/index.js';

const win = window as unknown as Window &
  Record<string, unknown> & { svc_api: SvcApi; svc_widget: Widget };
const widget = win.svc_widget;
const api = win.svc_api;

const el = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const found = document.getElementById(id);
  if (!found) throw new Error(`demo page has no #${id}`);
  return found as T;
};
const item = (text: string, className = ''): HTMLLIElement => {
  const li = document.createElement('li');
  li.textContent = text;
  if (className) li.className = className;
  return li;
};
/**
 * A chat line; an agent's file (spec 2.4) as `[photo] ` and its name linking to the file (an
 * http(s) link only, opened without access to this page); coordinates are in the text.
 */
const messageItem = (m: (typeof widget.messages)[number]): HTMLLIElement => {
  const file = m.media?.file;
  if (!file || !/^https?:\/\//i.test(file)) return item(m.text, m.from);
  const li = item(`[${m.media?.type ?? 'file'}] `, m.from);
  const a = document.createElement('a');
  a.href = file;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.textContent = m.media?.file_name ?? file;
  li.append(a);
  return li;
};
type ChatMessage = (typeof widget.messages)[number];
/**
 * A visitor line the simulator did not take: the text, then in words that it was not sent and
 * why (not only a colour), and a Retry button that sends the same text again.
 */
const notSentItem = (m: ChatMessage, index: number): HTMLLIElement => {
  const li = item('', 'visitor not-sent');
  const text = document.createElement('span');
  text.textContent = m.text;
  const status = document.createElement('span');
  status.className = 'send-status';
  status.textContent =
    m.notSent?.code === 'unreachable'
      ? 'Not sent: the simulator is unreachable.'
      : `Not sent: the simulator answered "${m.notSent?.message ?? ''}".`;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'retry';
  retry.dataset.index = String(index);
  retry.textContent = 'Retry';
  retry.setAttribute('aria-label', `Retry sending "${m.text}"`);
  retry.addEventListener('click', () => {
    widget.visitor.resend(m);
    void settle(m);
  });
  status.append(' ', retry);
  li.append(text, status);
  return li;
};
const note = (label: string, value: unknown): void => {
  el('results').prepend(item(`${label} → ${JSON.stringify(value)}`));
};

const platformUrl = document.body.dataset.platformUrl ?? '';
el('platform-url').textContent = platformUrl;
const consoleUrl = document.body.dataset.consoleUrl ?? '';
if (/^https?:\/\//.test(consoleUrl)) el('console-link').setAttribute('href', consoleUrl);

// a page whose simulator is gone must not say "online"
let reachable = true;
async function checkSimulator(): Promise<void> {
  let ok = false;
  try {
    ok = (await fetch(`${platformUrl}/_sim/widget/visitors`, { cache: 'no-store' })).ok;
  } catch {
    ok = false;
  }
  if (ok !== reachable) {
    reachable = ok;
    render();
  }
}

function render(): void {
  // spec 3: with agents offline (status 0) the real widget offers its offline form; a line
  // typed here still reaches the simulator, so say where the offline form is
  const offline =
    reachable && !widget.session.online
      ? [
          item(
            'Agents are offline: a site shows its offline form now. Try "Offline form" (sendOfflineMessage).',
            'notice',
          ),
        ]
      : [];
  // a redraw would drop the keyboard's place on a Retry button: the same message's takes it
  const focused = document.activeElement;
  const retryIndex = focused instanceof HTMLElement ? focused.dataset.index : undefined;
  el('messages').replaceChildren(
    ...offline,
    ...widget.messages.map((m, i) => (m.notSent ? notSentItem(m, i) : messageItem(m))),
  );
  if (retryIndex !== undefined)
    el('messages').querySelector<HTMLElement>(`button.retry[data-index="${retryIndex}"]`)?.focus();
  el('messages').scrollTop = el('messages').scrollHeight;
  el('chat-mode').textContent = !reachable
    ? 'simulator unreachable'
    : widget.session.online
      ? 'online'
      : 'offline';
  el('widget-state').textContent = `widget state: ${widget.state}`;
}

// spec 6.4: the page's callbacks, each one noted as it fires
const noteCallback = (name: string, args: readonly unknown[]): void => {
  el('callbacks').prepend(item(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`));
};
// what fired before this script ran (svc_onLoadCallback, as the double connected while this
// file was still loading): the double keeps the record; the list showed it on 1 load of 7
for (const record of widget.callbacks) noteCallback(record.name, record.args);
for (const name of [
  'svc_onOpen',
  'svc_onClose',
  'svc_onMessageSent',
  'svc_onAccept',
  'svc_onIntroduction',
  'svc_onCallStart',
  'svc_onCallEnd',
  'svc_onChangeState',
  'svc_onLoadCallback',
]) {
  win[name] = (...args: unknown[]) => {
    noteCallback(name, args);
    render();
  };
}
widget.transport.subscribe(() => render());

/**
 * Once a visitor message's send has settled: a send with no answer at all says at once that
 * the simulator is unreachable (the poll would say so only seconds later); one taken says it
 * is back. The keyboard, lost with a Retry button pressed, goes to the line's new Retry
 * button when it failed again, else to the input.
 */
async function settle(message: ChatMessage): Promise<void> {
  render(); // the line without its mark while it is sent again
  await widget.flush();
  if (message.notSent?.code === 'unreachable') reachable = false;
  else if (message.notSent === undefined) reachable = true;
  const focusLost = document.activeElement === document.body;
  render();
  if (!focusLost) return;
  const index = widget.messages.indexOf(message);
  const retry = message.notSent
    ? el('messages').querySelector<HTMLElement>(`button.retry[data-index="${index}"]`)
    : null;
  (retry ?? el('visitor-text')).focus();
}
void checkSimulator();
setInterval(() => void checkSimulator(), 5000);

const form = (id: string, run: (data: FormData, form: HTMLFormElement) => void): void => {
  el<HTMLFormElement>(id).addEventListener('submit', (event) => {
    event.preventDefault();
    const target = event.target as HTMLFormElement;
    run(new FormData(target), target);
    render();
  });
};
const text = (data: FormData, name: string): string | undefined => {
  const value = data.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

form('visitor-form', () => {
  const input = el<HTMLInputElement>('visitor-text');
  const value = input.value.trim();
  if (value === '') return;
  widget.visitor.send(value);
  // the text stays in the chat as a line, marked with a Retry when it is not sent
  input.value = '';
  const sent = widget.messages.at(-1);
  if (sent) void settle(sent);
});
form('contacts-form', (data) => {
  const info = { name: text(data, 'name'), email: text(data, 'email'), phone: text(data, 'phone') };
  widget.visitor.fillContacts(JSON.parse(JSON.stringify(info)) as Record<string, string>);
  note('contacts form', info);
});
form('call-form', (data) => note('startCall', api.startCall(text(data, 'phone') ?? '')));
form('offline-form', (data, target) => {
  const result = api.sendOfflineMessage({
    email: text(data, 'email') ?? '',
    message: text(data, 'message') ?? '',
  });
  note('sendOfflineMessage', result);
  // as a site's offline form: a message taken is cleared (the e-mail kept for the next one);
  // one refused stays to be corrected
  if (result.result === 'ok') {
    const message = target.elements.namedItem('message');
    if (message instanceof HTMLInputElement) message.value = '';
  }
});
el('custom-data').addEventListener('click', () =>
  note(
    'setCustomData',
    api.setCustomData([
      { title: 'Order', key: 'Number', content: '#1042' },
      { key: 'Cart', content: '2 items, 59.90 EUR', link: `${location.origin}/cart` },
    ]),
  ),
);
el('user-token').addEventListener('click', () =>
  note('setUserToken', api.setUserToken(`user-${widget.session.visitorId.slice(-8)}`)),
);
el('visitor-number').addEventListener('click', () =>
  api.getVisitorNumber((err, n) => note('getVisitorNumber', err ? err.message : n)),
);

render();
