/** Shared set-up of the widget unit tests: install on the happy-dom window, clean up after. */
import { afterEach } from 'vitest';
import {
  CALLBACK_NAMES,
  installWidget,
  type MemoryTransport,
  type Widget,
  type WidgetOutboundEvent,
  type WidgetOptions,
} from '../../../src/widget/index.js';

/** The window seen as the page's bag of globals (svc_api, svc_on* callbacks). */
export const page = (): Record<string, unknown> => window as unknown as Record<string, unknown>;

const installed: Widget[] = [];

afterEach(() => {
  for (const widget of installed.splice(0)) widget.uninstall();
  for (const name of CALLBACK_NAMES) delete page()[name];
});

/** Installs the double with a fixed page origin; uninstalled after the test. */
export function install(options: WidgetOptions = {}): Widget {
  const widget = installWidget(window, { pageOrigin: 'https://shop.test', ...options });
  installed.push(widget);
  return widget;
}

/** Defines `window[name]` as a function that records its calls. */
export function defineCallback(name: (typeof CALLBACK_NAMES)[number]): unknown[][] {
  const seen: unknown[][] = [];
  page()[name] = (...args: unknown[]) => {
    seen.push(args);
  };
  return seen;
}

/** What the widget sent to its in-memory platform. */
export const sentEvents = (widget: Widget): WidgetOutboundEvent[] =>
  (widget.transport as MemoryTransport).sent;

/** The page the double sends with a message, call or offline form (happy-dom's location). */
export const here = { url: 'http://localhost:3000/' };
