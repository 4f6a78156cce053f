// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  createMemoryTransport,
  type WidgetInboundEvent,
  type WidgetOutboundEvent,
  type WidgetTransport,
} from '../../../src/widget/index.js';
import {
  installFromPage,
  readDataOptions,
  simulatorOf,
} from '../../../src/widget/browser-install.js';
import { defineCallback, install, sentEvents } from './setup.js';

/** A platform that refuses or cannot be reached. */
function brokenTransport(mode: 'refuse' | 'unreachable'): WidgetTransport {
  return {
    send: (_event: WidgetOutboundEvent) =>
      mode === 'refuse'
        ? Promise.resolve({ ok: false, error: 'unknown widget' })
        : Promise.reject(new Error('connect ECONNREFUSED')),
    subscribe: () => () => undefined,
  };
}

describe('memory transport and the transport seam', () => {
  it('numbers visitors sequentially across widgets sharing one platform (spec 4.5)', async () => {
    const transport = createMemoryTransport();
    const first = install({ transport, visitorId: 'a' });
    const numbers: unknown[] = [];
    first.api.getVisitorNumber((_err, n) => numbers.push(n));
    await first.flush();
    first.uninstall();
    const second = install({ transport, visitorId: 'b' });
    second.api.getVisitorNumber((_err, n) => numbers.push(n));
    await second.flush();
    expect(numbers).toEqual([1, 2]);
  });

  it('starts numbering at firstVisitorNumber', async () => {
    const widget = install({ transport: createMemoryTransport({ firstVisitorNumber: 100 }) });
    let n: number | undefined;
    widget.api.getVisitorNumber((_err, value) => (n = value));
    await widget.flush();
    expect(n).toBe(100);
  });

  it('applies inbound events pushed by the platform, addressed or broadcast', () => {
    const transport = createMemoryTransport();
    const widget = install({ transport, visitorId: 'v1' });
    const accepted = defineCallback('svc_onAccept');
    const events: WidgetInboundEvent[] = [
      { type: 'agent_accepted', visitorId: 'someone-else' },
      { type: 'agent_accepted', visitorId: 'v1', agentName: 'Bob' },
      { type: 'agent_message', text: 'Hi' },
      { type: 'chat_mode', online: false },
      { type: 'callback_setting', callback: 'disabled' },
    ];
    for (const event of events) transport.push(event);
    expect(accepted).toHaveLength(1);
    expect(widget.messages).toMatchObject([{ from: 'agent', text: 'Hi' }]);
    expect(widget.api.chatMode()).toBe('offline');
    expect(widget.api.startCall('+15550100')).toEqual({
      result: 'fail',
      reason: 'Callback disabled',
    });
  });

  it('ends a call on inbound call_status end / error', () => {
    const transport = createMemoryTransport();
    const widget = install({ transport });
    const ended = defineCallback('svc_onCallEnd');
    widget.api.startCall('+15550100');
    transport.push({ type: 'call_status', status: 'end' });
    widget.api.startCall('+15550100');
    transport.push({ type: 'call_status', status: 'error' });
    expect(ended).toEqual([[{ result: 'ok' }], [{ result: 'fail', reason: 'call error' }]]);
  });

  it('every outbound event is plain JSON', async () => {
    const widget = install({ online: false });
    widget.api.setContactInfo({ name: 'Ann' });
    widget.api.setCustomData([{ content: 'x' }]);
    widget.api.setUserToken('tok');
    widget.api.setRules({ a: 1 });
    widget.api.showProactiveInvitation('hi');
    widget.api.sendOfflineMessage({ email: 'a@b.test', message: 'm' });
    widget.api.startCall('+15550100');
    widget.api.getVisitorNumber(() => undefined);
    widget.visitor.send('hello');
    widget.visitor.fillContacts({ phone: '+15550100' });
    await widget.flush();
    const sent = sentEvents(widget);
    expect(sent).toHaveLength(10);
    expect(JSON.parse(JSON.stringify(sent))).toEqual(sent);
  });

  it('getVisitorNumber hands the error to cb(err) when the platform refuses', async () => {
    const widget = install({ transport: brokenTransport('refuse') });
    const answers: unknown[][] = [];
    widget.api.getVisitorNumber((err, n) => answers.push([err?.message, n]));
    await widget.flush();
    expect(answers).toEqual([['unknown widget', undefined]]);
    expect(widget.issues).toMatchObject([{ method: 'transport', code: 'refused' }]);
  });

  it('an unreachable platform ends a started call with svc_onCallEnd fail', async () => {
    const widget = install({ transport: brokenTransport('unreachable') });
    const ended = defineCallback('svc_onCallEnd');
    expect(widget.api.startCall('+15550100')).toEqual({ result: 'ok' });
    await widget.flush();
    expect(ended).toEqual([[{ result: 'fail', reason: 'connect ECONNREFUSED' }]]);
    expect(widget.issues).toMatchObject([{ method: 'transport', code: 'unreachable' }]);
  });

  it('marks a visitor message the platform refused or never got, and resends it', async () => {
    for (const mode of ['refuse', 'unreachable'] as const) {
      const broken = brokenTransport(mode);
      const memory = createMemoryTransport();
      let platform: WidgetTransport = broken;
      const widget = install({
        transport: { send: (event) => platform.send(event), subscribe: (l) => memory.subscribe(l) },
      });
      widget.visitor.send('Where is my order?');
      await widget.flush();
      expect(widget.messages[0]?.notSent).toEqual(
        mode === 'refuse'
          ? { code: 'refused', message: 'unknown widget' }
          : { code: 'unreachable', message: 'connect ECONNREFUSED' },
      );
      platform = memory;
      widget.visitor.resend(widget.messages[0]!);
      await widget.flush();
      expect(widget.messages).toHaveLength(1);
      expect(widget.messages[0]).not.toHaveProperty('notSent');
      expect(memory.sent).toMatchObject([
        { type: 'visitor_message', text: 'Where is my order?', first: true },
      ]);
      expect(widget.fired('svc_onMessageSent')).toHaveLength(1);
      expect(() => widget.visitor.resend(widget.messages[0]!)).toThrow(/marked notSent/);
      widget.uninstall();
    }
  });

  it('a throwing getVisitorNumber callback is noted, not thrown', async () => {
    const widget = install();
    widget.api.getVisitorNumber(() => {
      throw new Error('page bug');
    });
    widget.api.getVisitorNumber(undefined as never);
    await widget.flush();
    expect(widget.issues.map((i) => i.code)).toEqual(['invalid_argument', 'callback_threw']);
  });
});

describe('browser bundle options', () => {
  it('reads data-* attributes, ignoring malformed values', () => {
    expect(
      readDataOptions({
        online: 'false',
        callback: 'unavailable',
        callBalance: '0',
        safeUrl: 'true',
        pageOrigin: 'https://shop.test',
        visitorId: 'v9',
      }),
    ).toEqual({
      online: false,
      callback: 'unavailable',
      callBalance: 0,
      safeUrl: true,
      pageOrigin: 'https://shop.test',
      visitorId: 'v9',
    });
    const problems: string[] = [];
    expect(
      readDataOptions({ callback: 'disabeld', callBalance: 'lots', online: 'no' }, problems),
    ).toEqual({});
    // each said, so the page notes it (newcomer pass: "no" read as online, silently)
    expect(problems).toEqual([
      'data-online="no" is not true or false: the default is kept',
      'data-callback="disabeld" is none of enabled, disabled, unavailable: the default (enabled) is kept',
      'data-call-balance="lots" is not a number: the default (100) is kept',
    ]);
    // a name of Object.prototype is no boolean either
    const more: string[] = [];
    expect(readDataOptions({ online: 'constructor' }, more)).toEqual({});
    expect(more).toHaveLength(1);
    // a platform URL without its scheme resolved against the page: said, not used
    const url: string[] = [];
    expect(readDataOptions({ platformUrl: '127.0.0.1:8200' }, url)).toEqual({});
    expect(url).toEqual([
      'data-platform-url="127.0.0.1:8200" is no http:// or https:// URL (svc-cli platform prints one, e.g. http://127.0.0.1:8800): the widget stays in the page, talking to no simulator',
    ]);
    expect(readDataOptions({ platformUrl: 'http://127.0.0.1:8200' })).toEqual({
      platformUrl: 'http://127.0.0.1:8200',
    });
    // the console's address pasted: the simulator in front of /_sim is used, and that is said
    const pasted: string[] = [];
    expect(readDataOptions({ platformUrl: 'http://127.0.0.1:8200/_sim/console/' }, pasted)).toEqual(
      { platformUrl: 'http://127.0.0.1:8200' },
    );
    expect(pasted).toEqual([
      'data-platform-url="http://127.0.0.1:8200/_sim/console/" is a page of the simulator, not the simulator: using http://127.0.0.1:8200',
    ]);
  });
});

describe('browser bundle install', () => {
  it('says once in the page console that no simulator is named, and not when one is', () => {
    const page = window as unknown as Record<string, unknown>;
    const said: string[] = [];
    const info = vi.spyOn(console, 'info').mockImplementation((m: string) => void said.push(m));
    try {
      const alone = installFromPage(window);
      alone.uninstall();
      delete page.svc_widget;
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('talking to no simulator; add data-platform-url=');
      // a transport of its own (as createHttpTransport for data-platform-url) is a simulator
      page.svc_widget_options = { transport: createMemoryTransport() };
      const named = installFromPage(window);
      named.uninstall();
      expect(said).toHaveLength(1);
    } finally {
      info.mockRestore();
      delete page.svc_widget;
      delete page.svc_widget_options;
    }
  });

  it('installs from window.svc_widget_options and exposes window.svc_widget', async () => {
    const page = window as unknown as Record<string, unknown>;
    page.svc_widget_options = { online: false, visitorId: 'from-options' };
    const widget = installFromPage(window);
    try {
      expect(page.svc_widget).toBe(widget);
      expect(page.svc_api).toBe(widget.api);
      expect(widget.visitorId).toBe('from-options');
      expect(widget.api.chatMode()).toBe('offline');
      await widget.ready;
    } finally {
      widget.uninstall();
      delete page.svc_widget;
      delete page.svc_widget_options;
    }
  });

  it('a second copy of the script does nothing but say so: callbacks would fire twice', async () => {
    const page = window as unknown as Record<string, unknown>;
    const first = installFromPage(window);
    try {
      await first.ready;
      expect(installFromPage(window)).toBe(first);
      expect(first.issues).toContainEqual(
        expect.objectContaining({ method: 'script tag', code: 'loaded_twice' }),
      );
    } finally {
      first.uninstall();
      delete page.svc_widget;
    }
  });
});

describe('the simulator a script URL names (simulatorOf)', () => {
  it.each([
    ['http://127.0.0.1:8800/_sim/widget/svc-widget.js', 'http://127.0.0.1:8800'],
    ['https://sim.test/base/_sim/widget/svc-widget.js?v=2', 'https://sim.test/base'],
    ['http://127.0.0.1:8080/svc-widget.js', undefined],
    ['http://127.0.0.1:8800/_sim/console/svc-widget.js', undefined],
    ['', undefined],
  ])('%s -> %s', (src, simulator) => {
    expect(simulatorOf(src)).toBe(simulator);
  });
});
