/**
 * A tiny DOM builder for the console. Text always goes in as text nodes (textContent), never
 * as HTML, so chat content, custom data and journal bodies cannot inject markup (XSS-safe).
 */
export type Child = Node | string | number | false | null | undefined;

export interface Attrs {
  class?: string;
  title?: string;
  href?: string;
  type?: string;
  placeholder?: string;
  value?: string;
  disabled?: boolean;
  data?: Record<string, string>;
  style?: string;
  onclick?: () => void;
}

/** Tags the keyboard reaches and activates by themselves. */
const NATIVELY_FOCUSABLE: ReadonlySet<string> = new Set([
  'a',
  'button',
  'input',
  'select',
  'summary',
  'textarea',
]);

/**
 * Creates an element with attributes and children. An `onclick` on another element (a chat
 * in the list, a journal row) makes it focusable and Enter or Space presses it.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs.class) el.className = attrs.class;
  if (attrs.title) el.title = attrs.title;
  if (attrs.style) el.setAttribute('style', attrs.style);
  if (attrs.type) el.setAttribute('type', attrs.type);
  if (attrs.placeholder) el.setAttribute('placeholder', attrs.placeholder);
  if (attrs.value !== undefined && 'value' in el) (el as HTMLInputElement).value = attrs.value;
  if (attrs.disabled) el.setAttribute('disabled', '');
  if (attrs.href !== undefined && isSafeUrl(attrs.href)) {
    el.setAttribute('href', attrs.href);
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer');
  }
  for (const [key, value] of Object.entries(attrs.data ?? {})) el.dataset[key] = value;
  const onclick = attrs.onclick;
  if (onclick) {
    el.addEventListener('click', onclick);
    // a clickable row or list item is reached by keyboard too: Tab to it, then Enter or Space
    if (!NATIVELY_FOCUSABLE.has(tag)) {
      el.tabIndex = 0;
      el.addEventListener('keydown', (event: Event) => {
        const { key } = event as KeyboardEvent;
        if (event.target !== el || (key !== 'Enter' && key !== ' ')) return;
        event.preventDefault(); // Space would scroll the page
        onclick();
      });
    }
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Only http(s) links become clickable; anything else (javascript:, data:) stays text. */
export function isSafeUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * A URL as text with a line-break opportunity (`<wbr>`) after each `/`, `?`, `&`, `#` and
 * `=`, so a long one wraps between its parts in a narrow panel rather than mid-word; any
 * other text as it is.
 */
export function breakableUrl(text: string): Child {
  if (!isSafeUrl(text)) return text;
  const out = document.createDocumentFragment();
  for (const part of text.split(/(?<=[/?&#=])/)) {
    if (out.childNodes.length > 0) out.append(document.createElement('wbr'));
    out.append(document.createTextNode(part));
  }
  return out;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** The HTML `refill` last drew into each element. */
const lastDrawn = new WeakMap<Element, string>();

/**
 * `fill`, unless it would draw what `el` already shows from the last `refill`. The console
 * draws on every event; a node replaced under the pointer loses a click pressed on it (the
 * press lands on the old node, the release on the new one), and an open `<details>` closes.
 * Listeners are not compared: the console's act on an id (a chat's, an entry's), not on an
 * object that changes.
 * @returns whether it drew
 */
export function refill(el: Element, ...children: Child[]): boolean {
  const next = document.createElement('div');
  fill(next, ...children);
  const html = next.innerHTML;
  if (lastDrawn.get(el) === html) return false;
  lastDrawn.set(el, html);
  const focused = document.activeElement;
  const again = focused && focused !== el && el.contains(focused) ? selectorOf(focused) : '';
  el.replaceChildren(...Array.from(next.childNodes));
  // the keyboard's place survives a redraw: the element drawn for the same thing takes the focus
  if (again) el.querySelector<HTMLElement>(again)?.focus();
  return true;
}

/**
 * A selector for what an element shows, from its tag and data-* attributes (`li[data-chat-id="3"]`);
 * '' when it has none to tell it from its siblings.
 */
function selectorOf(el: Element): string {
  const data = Array.from(el.attributes).filter((a) => a.name.startsWith('data-'));
  if (data.length === 0) return '';
  return `${el.localName}${data.map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join('')}`;
}

/** Finds a required element of the page. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`console page has no #${id}`);
  return el as T;
}

/** Pretty JSON when the text is JSON, else the text as is. */
export function prettyBody(text: string | undefined): string {
  if (text === undefined || text === '') return '(empty)';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Protocol ms as seconds with millisecond precision. */
export const secs = (ms: number): string => `${(ms / 1000).toFixed(3)}s`;
