/**
 * A widget page in a test: the page-script double over HTTP (`createHttpTransport`, the test
 * EventSource of Node 20) against a simulator on loopback, uninstalled and disconnected after
 * each test of the file that calls `widgetPages()`.
 */
import { afterEach } from 'vitest';
import {
  createHttpTransport,
  installWidget,
  type HttpTransport,
  type Widget,
} from '../../src/widget/index.js';
import { TestEventSource } from './event-source.js';

export interface WidgetPage {
  transport: HttpTransport;
  widget: Widget;
}

/**
 * Returns `openPage(simulatorUrl, window?)`: a page of visitor `v-1` (or `visitorId`), its
 * stream open and svc_onLoadCallback run; closed after the test.
 * @example const openPage = widgetPages(); const { widget } = await openPage(harness.url);
 */
export function widgetPages(): (
  simulatorUrl: string,
  win?: Record<string, unknown>,
  visitorId?: string,
) => Promise<WidgetPage> {
  const open: WidgetPage[] = [];
  afterEach(() => {
    for (const { transport, widget } of open.splice(0)) {
      widget.uninstall();
      transport.close();
    }
  });
  return async (simulatorUrl, win = {}, visitorId = 'v-1') => {
    const transport = createHttpTransport(simulatorUrl, {
      visitorId,
      EventSource: TestEventSource,
    });
    const widget = installWidget(
      { location: { origin: 'https://shop.example' }, ...win },
      { transport },
    );
    open.push({ transport, widget });
    await transport.connected();
    await widget.ready;
    return { transport, widget };
  };
}
