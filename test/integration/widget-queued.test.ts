/**
 * An agent's message to a widget visitor whose page is not open (interface C, spec 4.5): the
 * platform keeps it for the visitor's next page, and the control API says so beside
 * `delivered`, which alone read as "the visitor saw it".
 */
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { post, startPlatform } from '../helpers/platform.js';
import { widgetPages } from '../helpers/widget-page.js';

const openPage = widgetPages();

describe('an agent message to a widget visitor (spec 4.5)', () => {
  it('says it was queued while no page listens, and not while one does', async () => {
    const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
    const { transport, widget } = await openPage(harness.url);
    widget.visitor.send('Is my order on its way?');
    await widget.flush();

    const live = await post(`${harness.url}/_sim/agent/message`, { chatId: 1, text: 'Yes.' });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ result: 'delivered' });
    expect(live.body).not.toHaveProperty('note');

    const left = new Promise<void>((resolve) => {
      const off = harness.platform.core.on((event) => {
        if (event.type !== 'widget-visitor' || event.connected) return;
        off();
        resolve();
      }, 'the test');
    });
    widget.uninstall();
    transport.close(); // the visitor left the page
    await left;
    const queued = await post(`${harness.url}/_sim/agent/message`, { chatId: 1, text: 'Still?' });
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({
      result: 'delivered',
      note: expect.stringContaining('queued: no page of the visitor is open') as unknown,
    });
  });
});
