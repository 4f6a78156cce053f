/**
 * How the browser bundle installs itself: options from `window.svc_widget_options` (an
 * object set before the script tag), overridden by the loading tag's data attributes
 * (`data-online`, `data-callback`, `data-call-balance`, `data-safe-url`,
 * `data-page-origin`, `data-visitor-id`, `data-platform-url`: talk to a running simulator over
 * HTTP; `data-profile="docs"`: the public docs' setClientAttributes and its limit); the driver is exposed as `window.svc_widget`.
 */
import { installWidget, type Widget } from './install.js';
import { noteIssue } from './session.js';
import { createVisitorId } from './transport.js';
import type { CallbackSetting, WidgetOptions } from './types.js';

const CALLBACK_SETTINGS: readonly string[] = ['enabled', 'disabled', 'unavailable'];

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, '': true, false: false };

/**
 * Reads data-* attributes into widget options; an unknown or malformed value keeps the
 * default and is said in `problems` (the page then notes it as an issue).
 */
export function readDataOptions(
  dataset: Record<string, string | undefined>,
  problems: string[] = [],
): WidgetOptions {
  const options: WidgetOptions = {};
  const flag = (name: string, value: string | undefined): boolean | undefined => {
    if (value === undefined) return undefined;
    const known = Object.hasOwn(BOOLEANS, value) ? BOOLEANS[value] : undefined;
    if (known === undefined)
      problems.push(`data-${name}="${value}" is not true or false: the default is kept`);
    return known;
  };
  const online = flag('online', dataset.online);
  if (online !== undefined) options.online = online;
  if (dataset.callback !== undefined) {
    if (CALLBACK_SETTINGS.includes(dataset.callback))
      options.callback = dataset.callback as CallbackSetting;
    else
      problems.push(
        `data-callback="${dataset.callback}" is none of ${CALLBACK_SETTINGS.join(', ')}: the default (enabled) is kept`,
      );
  }
  if (dataset.callBalance !== undefined) {
    if (dataset.callBalance.trim() !== '' && Number.isFinite(Number(dataset.callBalance)))
      options.callBalance = Number(dataset.callBalance);
    else
      problems.push(
        `data-call-balance="${dataset.callBalance}" is not a number: the default (100) is kept`,
      );
  }
  const safeUrl = flag('safe-url', dataset.safeUrl);
  if (safeUrl !== undefined) options.safeUrl = safeUrl;
  if (dataset.pageOrigin !== undefined) options.pageOrigin = dataset.pageOrigin;
  if (dataset.visitorId !== undefined) options.visitorId = dataset.visitorId;
  if (dataset.platformUrl !== undefined) {
    // "127.0.0.1:8800" without its scheme resolves against the page (…/127.0.0.1:8800/_sim/…)
    if (/^https?:\/\/[^/]/i.test(dataset.platformUrl)) {
      // the console's address pasted (…/_sim/console/): the simulator is what is in front of /_sim
      const base = dataset.platformUrl.replace(/\/_sim(?:\/.*)?$/, '');
      if (base !== dataset.platformUrl)
        problems.push(
          `data-platform-url="${dataset.platformUrl}" is a page of the simulator, not the simulator: using ${base}`,
        );
      options.platformUrl = base;
    } else
      problems.push(
        `data-platform-url="${dataset.platformUrl}" is no http:// or https:// URL (svc-cli platform prints one, e.g. http://127.0.0.1:8800): the widget stays in the page, talking to no simulator`,
      );
  }
  if (dataset.profile !== undefined) {
    if (dataset.profile === 'spec' || dataset.profile === 'docs') options.profile = dataset.profile;
    else
      problems.push(
        `data-profile="${dataset.profile}" is none of spec, docs: the default (spec) is kept`,
      );
  }
  return options;
}

/**
 * The simulator a script URL of its widget channel names (`http://127.0.0.1:8800` of
 * `http://127.0.0.1:8800/_sim/widget/svc-widget.js`), else undefined.
 */
export function simulatorOf(src: string): string | undefined {
  const match =
    /^(https?:\/\/[^/?#]+(?:\/[^?#]*?)?)\/_sim\/widget\/svc-widget\.js(?:[?#].*)?$/i.exec(src);
  return match?.[1];
}

/**
 * Installs the double on the page that loads the bundle and returns it (also as
 * `window.svc_widget`, so browser tests drive the agent side with `page.evaluate`).
 */
export function installFromPage(win: Window): Widget {
  const host = win as unknown as Record<string, unknown>;
  // a second <script> tag of the bundle: a second double would fire every callback twice
  const installed = host.svc_widget as Widget | undefined;
  if (installed?.session !== undefined) {
    noteIssue(
      installed.session,
      'script tag',
      'loaded_twice',
      'the widget script is loaded twice on this page: the second copy does nothing (two would call each svc_on* callback twice)',
    );
    return installed;
  }
  const fromWindow = (host.svc_widget_options ?? {}) as WidgetOptions;
  const script = win.document.currentScript;
  const problems: string[] = [];
  const fromTag =
    script !== null && 'dataset' in script ? readDataOptions({ ...script.dataset }, problems) : {};
  // loaded from a simulator (`<script src="http://127.0.0.1:8800/_sim/widget/svc-widget.js">`)
  // and no simulator named: the one that served it
  const servedBy = simulatorOf(script !== null && 'src' in script ? script.src : '');
  if (fromTag.platformUrl === undefined && fromWindow.platformUrl === undefined && servedBy)
    fromTag.platformUrl = servedBy;
  // in a browser, what the double notes is told in the page's console too
  const pageConsole = host.console as Console | undefined;
  const options: WidgetOptions = {
    ...(pageConsole ? { console: pageConsole } : {}),
    // a page script is under test here: one that calls svc_api before it loads is told so
    noteEarlyCalls: true,
    ...fromWindow,
    ...fromTag,
  };
  // the real widget knows its visitor again after a reload (a cookie): the same visitor, the
  // same chat, the agent's next answer reaches this page
  if (options.visitorId === undefined && options.platformUrl !== undefined) {
    const remembered = rememberVisitor(win, options.platformUrl);
    if (remembered !== undefined) options.visitorId = remembered;
  }
  const widget = installWidget(win, options);
  for (const problem of problems) noteIssue(widget.session, 'script tag', 'bad_option', problem);
  // no simulator named: a page whose messages reach no console would look broken
  if (options.platformUrl === undefined && options.transport === undefined)
    pageConsole?.info(
      'svc_api double: running in this page alone, talking to no simulator; add data-platform-url="http://127.0.0.1:8800" (the address svc-cli platform prints) to the script tag to reach one',
    );
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
