/**
 * How the browser bundle installs itself: options from `window.svc_widget_options` (an
 * object set before the script tag), overridden by the loading tag's data attributes
 * (`data-online`, `data-callback`, `data-call-balance`, `data-safe-url`,
 * `data-page-origin`, `data-visitor-id`, `data-platform-url`: talk to a running simulator over
 * HTTP); the driver is exposed as `window.svc_widget`.
 */
import { installWidget, type Widget } from './install.js';
import { createVisitorId } from './transport.js';
import type { CallbackSetting, WidgetOptions } from './types.js';

const CALLBACK_SETTINGS: readonly string[] = ['enabled', 'disabled', 'unavailable'];

/** Reads data-* attributes into widget options; unknown or malformed values keep the defaults. */
export function readDataOptions(dataset: Record<string, string | undefined>): WidgetOptions {
  const options: WidgetOptions = {};
  if (dataset.online !== undefined) options.online = dataset.online !== 'false';
  if (dataset.callback !== undefined && CALLBACK_SETTINGS.includes(dataset.callback)) {
    options.callback = dataset.callback as CallbackSetting;
  }
  if (dataset.callBalance !== undefined && Number.isFinite(Number(dataset.callBalance))) {
    options.callBalance = Number(dataset.callBalance);
  }
  if (dataset.safeUrl !== undefined) options.safeUrl = dataset.safeUrl !== 'false';
  if (dataset.pageOrigin !== undefined) options.pageOrigin = dataset.pageOrigin;
  if (dataset.visitorId !== undefined) options.visitorId = dataset.visitorId;
  if (dataset.platformUrl !== undefined) options.platformUrl = dataset.platformUrl;
  return options;
}

/**
 * Installs the double on the page that loads the bundle and returns it (also as
 * `window.svc_widget`, so browser tests drive the agent side with `page.evaluate`).
 */
export function installFromPage(win: Window): Widget {
  const host = win as unknown as Record<string, unknown>;
  const fromWindow = (host.svc_widget_options ?? {}) as WidgetOptions;
  const script = win.document.currentScript;
  const fromTag =
    script !== null && 'dataset' in script ? readDataOptions({ ...script.dataset }) : {};
  const options: WidgetOptions = { ...fromWindow, ...fromTag };
  // the real widget knows its visitor again after a reload (a cookie): the same visitor, the
  // same chat, the agent's next answer reaches this page
  if (options.visitorId === undefined && options.platformUrl !== undefined) {
    const remembered = rememberVisitor(win, options.platformUrl);
    if (remembered !== undefined) options.visitorId = remembered;
  }
  const widget = installWidget(win, options);
  host.svc_widget = widget;
  return widget;
}

/**
 * This browser's visitor id for the simulator at `platformUrl`, kept in localStorage (made the
 * first time); undefined where the page may not store anything (a sandboxed frame, privacy
 * settings): a new visitor each load then, as before.
 */
export function rememberVisitor(win: Window, platformUrl: string): string | undefined {
  const key = `svc_widget_visitor:${platformUrl.replace(/\/+$/, '')}`;
  try {
    const storage = win.localStorage;
    const known = storage.getItem(key);
    if (known !== null && known !== '' && known.length <= 200) return known;
    const made = createVisitorId();
    storage.setItem(key, made);
    return made;
  } catch {
    return undefined;
  }
}
