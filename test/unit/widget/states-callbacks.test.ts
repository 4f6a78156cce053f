// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createMemoryTransport } from '../../../src/widget/index.js';
import { defineCallback, here, install, page, sentEvents } from './setup.js';

describe('window states (spec 3) and open/close callbacks (spec 6.4)', () => {
  it('fires svc_onLoadCallback asynchronously after installation', async () => {
    const loaded = defineCallback('svc_onLoadCallback');
    const widget = install();
    expect(loaded).toEqual([]);
    await widget.ready;
    expect(loaded).toEqual([[]]);
  });

  /**
   * While the page is `state`, the double holds svc_onLoadCallback until `event` fires on
   * `target`: a callback a later script defines is still found.
   */
  async function loadCallbackWaitsFor(
    state: 'loading' | 'interactive',
    target: EventTarget,
    event: string,
  ): Promise<void> {
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => state });
    try {
      const widget = install();
      // a turn in which the double would have fired (it fires on the next timer turn)
      await new Promise((resolve) => setTimeout(resolve, 0));
      const loaded = defineCallback('svc_onLoadCallback'); // the later script
      expect(widget.callbacks).toEqual([]);
      target.dispatchEvent(new Event(event));
      await widget.ready;
      expect(loaded).toEqual([[]]);
    } finally {
      delete (document as unknown as Record<string, unknown>).readyState;
    }
    expect(document.readyState).not.toBe(state);
  }

  it('waits for the page to finish parsing: a callback defined below the script tag runs', () =>
    // newcomer pass: the page's next inline script defined it after the double had fired
    loadCallbackWaitsFor('loading', document, 'DOMContentLoaded'));

  it('a deferred script (readyState interactive) waits for the window load', () =>
    loadCallbackWaitsFor('interactive', window, 'load'));

  it("tells the page's console what it notes: a callback that threw, with its error", async () => {
    const said: unknown[][] = [];
    const log = {
      warn: (...a: unknown[]) => said.push(['warn', ...a]),
      error: (...a: unknown[]) => said.push(['error', ...a]),
    };
    const boom = new Error('boom');
    page().svc_onLoadCallback = () => {
      throw boom;
    };
    const widget = install({ console: log });
    await widget.ready;
    widget.api.setContactInfo({ nmae: 'x' } as never);
    expect(said).toEqual([
      // the error object prints its own text and stack: the line does not repeat it
      ['error', 'svc_api double: svc_onLoadCallback threw:', boom],
      [
        'warn',
        'svc_api double: setContactInfo: unknown field "nmae" ignored (spec 4.5: name, email, phone, description)',
      ],
    ]);
    expect(widget.issues).toHaveLength(2);
  });

  it('notes a function named like a callback that spec 6.4 lacks, with the likely one', async () => {
    const said: unknown[][] = [];
    const log = { warn: (...a: unknown[]) => said.push(a), error: () => {} };
    page().svc_onAcept = () => {};
    page().svc_onReady = () => {};
    page().svc_onAccept = () => {};
    page().svc_onSomething = 'not a function';
    page().svc_onZzz = () => {};
    try {
      const widget = install({ console: log });
      await widget.ready;
      expect(widget.issues).toEqual([
        {
          method: 'svc_onAcept',
          code: 'unknown_callback',
          message:
            'window.svc_onAcept is no callback the script calls (spec 6.4); did you mean svc_onAccept?',
        },
        {
          method: 'svc_onReady',
          code: 'unknown_callback',
          message:
            'window.svc_onReady is no callback the script calls (spec 6.4); did you mean svc_onLoadCallback?',
        },
        {
          method: 'svc_onZzz',
          code: 'unknown_callback',
          message: expect.stringContaining(
            'window.svc_onZzz is no callback the script calls (spec 6.4); the callbacks it calls: svc_onLoadCallback, svc_onOpen,',
          ),
        },
      ]);
      expect(said[0]).toEqual([
        'svc_api double: window.svc_onAcept is no callback the script calls (spec 6.4); did you mean svc_onAccept?',
      ]);
    } finally {
      for (const name of [
        'svc_onAcept',
        'svc_onReady',
        'svc_onAccept',
        'svc_onSomething',
        'svc_onZzz',
      ])
        delete page()[name];
    }
  });

  it('looks callbacks up at call time, so one defined after install still runs', async () => {
    const widget = install();
    const loaded = defineCallback('svc_onLoadCallback');
    await widget.ready;
    expect(loaded).toHaveLength(1);
  });

  it('open() shows the chat: svc_onOpen then svc_onChangeState("chat")', () => {
    const widget = install();
    const order: string[] = [];
    page().svc_onOpen = () => order.push('open');
    page().svc_onChangeState = (state: string) => order.push(`state:${state}`);
    expect(widget.state).toBe('label');
    widget.api.open();
    expect(order).toEqual(['open', 'state:chat']);
    widget.api.open(); // already open: nothing fires
    expect(order).toEqual(['open', 'state:chat']);
  });

  it('open({start: "call"}) opens the callback form: "call", or "chat/call" over an open chat', () => {
    const widget = install();
    const states = defineCallback('svc_onChangeState');
    const opened = defineCallback('svc_onOpen');
    widget.api.open({ start: 'call' });
    widget.api.open();
    widget.api.open({ start: 'call' });
    expect(states).toEqual([['call'], ['chat'], ['chat/call']]);
    expect(opened).toHaveLength(1);
  });

  it('close() minimizes to "label" before any message and to "chat/min" after', () => {
    const widget = install();
    const states = defineCallback('svc_onChangeState');
    const closed = defineCallback('svc_onClose');
    widget.api.open();
    widget.api.close();
    widget.api.close(); // already minimized: nothing fires
    widget.visitor.send('hello'); // opens the window to type
    widget.api.close();
    expect(states).toEqual([['chat'], ['label'], ['chat'], ['chat/min']]);
    expect(closed).toHaveLength(2);
  });

  it('a page loaded again over an open chat comes back minimized on it, not as the label', () => {
    const transport = createMemoryTransport();
    const widget = install({ transport });
    const states = defineCallback('svc_onChangeState');
    const opened = defineCallback('svc_onOpen');
    const sent = defineCallback('svc_onMessageSent');
    transport.push({ type: 'transcript', messages: [] }); // no chat yet: still the label
    expect(widget.state).toBe('label');
    transport.push({
      type: 'transcript',
      messages: [
        { from: 'visitor', text: 'Where is my order?' },
        { from: 'agent', text: 'It ships today.' },
      ],
    });
    expect(widget.state).toBe('chat/min'); // history, not news: nothing fires
    expect(states).toEqual([]);
    widget.visitor.send('Thanks'); // not the first message: the chat has history
    widget.api.close();
    expect(states).toEqual([['chat'], ['chat/min']]);
    expect(opened).toHaveLength(1);
    expect(sent).toEqual([]);
  });

  it('open() with a non-object argument still opens the chat and notes it', () => {
    const widget = install();
    widget.api.open('call' as never);
    expect(widget.state).toBe('chat');
    expect(widget.issues.map((i) => i.code)).toEqual(['invalid_argument']);
  });

  it('open() with a start other than "call" opens the chat and says so', () => {
    const widget = install();
    widget.api.open({ start: 'Call' });
    expect(widget.state).toBe('chat');
    expect(widget.issues.map((i) => i.message)).toMatchInlineSnapshot(`
      [
        "open: start "Call" is not "call": the chat window opens",
      ]
    `);
  });

  it('setState drives any spec 3 state, firing open/close on the boundary', () => {
    const widget = install();
    widget.setState('chat/call');
    widget.setState('chat/min');
    expect(widget.fired('svc_onOpen')).toHaveLength(1);
    expect(widget.fired('svc_onClose')).toHaveLength(1);
    expect(widget.fired('svc_onChangeState')).toEqual([['chat/call'], ['chat/min']]);
  });

  it('showProactiveInvitation opens the chat with the text', async () => {
    const widget = install({ visitorId: 'v1' });
    const opened = defineCallback('svc_onOpen');
    widget.api.showProactiveInvitation('Need help with your order?', 3);
    expect(opened).toHaveLength(1);
    expect(widget.state).toBe('chat');
    expect(widget.messages).toMatchObject([
      { from: 'invitation', text: 'Need help with your order?' },
    ]);
    await widget.flush();
    expect(sentEvents(widget)).toEqual([
      { type: 'invitation', visitorId: 'v1', text: 'Need help with your order?', departmentId: 3 },
    ]);
  });

  it('showProactiveInvitation with bad arguments does nothing and notes it', () => {
    const widget = install();
    widget.api.showProactiveInvitation('', 3);
    widget.api.showProactiveInvitation('hi', '3' as never);
    (widget.api.showProactiveInvitation as () => void)();
    expect(widget.state).toBe('label');
    expect(widget.issues.map((i) => i.code)).toEqual([
      'invalid_argument',
      'invalid_argument',
      'invalid_argument',
    ]);
    // the message names the wrong argument: department_id is optional (spec 4.5)
    expect(widget.issues.map((i) => i.message)).toMatchInlineSnapshot(`
      [
        "showProactiveInvitation: the invitation text must be a non-blank string (got ""); nothing shown",
        "showProactiveInvitation: department_id, when given, must be a number (got "3"); nothing shown",
        "showProactiveInvitation: the invitation text must be a non-blank string (got undefined); nothing shown",
      ]
    `);
  });

  it('showProactiveInvitation takes the text alone (department_id is optional)', () => {
    const widget = install();
    widget.api.showProactiveInvitation('Hi!');
    expect(widget.state).toBe('chat');
    expect(widget.issues).toEqual([]);
  });

  it('showProactiveInvitation works inside svc_onLoadCallback (spec 4.5)', async () => {
    page().svc_onLoadCallback = () =>
      (
        page().svc_api as { showProactiveInvitation(t: string, d: number): void }
      ).showProactiveInvitation('Hi!', 1);
    const widget = install();
    await widget.ready;
    expect(widget.state).toBe('chat');
  });
});

describe('conversation callbacks (spec 6.4)', () => {
  it('svc_onMessageSent fires on the first visitor message only', async () => {
    const widget = install({ visitorId: 'v1' });
    const sent = defineCallback('svc_onMessageSent');
    widget.visitor.send('one');
    widget.visitor.send('two');
    expect(sent).toEqual([[]]);
    await widget.flush();
    expect(sentEvents(widget)).toEqual([
      { type: 'visitor_message', visitorId: 'v1', text: 'one', first: true, page: here },
      { type: 'visitor_message', visitorId: 'v1', text: 'two', first: false, page: here },
    ]);
  });

  it('a closed chat ends: the next message is a new chat first, and fires svc_onMessageSent', async () => {
    const transport = createMemoryTransport();
    const widget = install({ transport, visitorId: 'v1' });
    const sent = defineCallback('svc_onMessageSent');
    widget.visitor.send('one');
    transport.push({ type: 'chat_closed' }); // the agent closed the chat
    widget.visitor.send('two');
    widget.visitor.send('three');
    expect(sent).toEqual([[], []]);
    expect(widget.messages.map((m) => [m.from, m.text])).toEqual([
      ['visitor', 'one'],
      ['notice', 'The chat was closed; a new message starts a new chat.'],
      ['visitor', 'two'],
      ['visitor', 'three'],
    ]);
    await widget.flush();
    expect(
      transport.sent.flatMap((e) => (e.type === 'visitor_message' ? [[e.text, e.first]] : [])),
    ).toEqual([
      ['one', true],
      ['two', true],
      ['three', false],
    ]);
  });

  it('a close told to a page with no chat on it (a restarted simulator) shows no notice', () => {
    const transport = createMemoryTransport();
    const widget = install({ transport, visitorId: 'v1' });
    transport.push({ type: 'chat_closed' });
    expect(widget.messages).toEqual([]);
    widget.visitor.send('one');
    transport.push({ type: 'chat_closed' });
    transport.push({ type: 'chat_closed' }); // told again: one notice
    expect(widget.messages.map((m) => m.from)).toEqual(['visitor', 'notice']);
  });

  it('agent.closeChat() plays the agent closing the chat', () => {
    const widget = install();
    const sent = defineCallback('svc_onMessageSent');
    widget.visitor.send('one');
    widget.agent.closeChat();
    widget.visitor.send('two');
    expect(sent).toHaveLength(2);
  });

  it('visitor.send rejects empty text (a bug in the test)', () => {
    const widget = install();
    expect(() => widget.visitor.send(' ')).toThrow('visitor.send: text must be a non-empty string');
  });

  it('svc_onAccept fires when an agent presses Reply; agent.say adds to the chat', () => {
    const widget = install();
    const accepted = defineCallback('svc_onAccept');
    widget.agent.accept('Bob');
    widget.agent.say('Hello, how can I help?');
    expect(accepted).toEqual([[]]);
    expect(widget.messages).toMatchObject([{ from: 'agent', text: 'Hello, how can I help?' }]);
  });

  it('svc_onIntroduction fires when the contacts form is filled; contacts update', () => {
    const widget = install();
    const intro = defineCallback('svc_onIntroduction');
    widget.visitor.fillContacts({ name: 'Ann', email: 'ann@shop.test' });
    expect(intro).toEqual([[]]);
    expect(widget.api.getContactInfo()).toEqual({ name: 'Ann', email: 'ann@shop.test' });
  });

  it('svc_onResizeCallback fires on a size change only', () => {
    const widget = install();
    const resized = defineCallback('svc_onResizeCallback');
    widget.resize(320, 480);
    widget.resize(320, 480);
    widget.resize(640, 480);
    expect(resized).toHaveLength(2);
    expect(widget.session.size).toEqual({ width: 640, height: 480 });
  });

  it('a throwing callback is recorded and does not break the double', () => {
    const widget = install();
    page().svc_onOpen = () => {
      throw new Error('page bug');
    };
    const states = defineCallback('svc_onChangeState');
    expect(() => widget.api.open()).not.toThrow();
    expect(states).toEqual([['chat']]);
    expect(widget.callbacks[0]).toMatchObject({ name: 'svc_onOpen', defined: true });
    expect(String(widget.callbacks[0]!.error)).toBe('Error: page bug');
    expect(widget.issues).toMatchObject([{ method: 'svc_onOpen', code: 'callback_threw' }]);
  });

  it('records callbacks that were due even when the page did not define them', () => {
    const widget = install();
    widget.api.open();
    expect(widget.callbacks.map((c) => [c.name, c.defined])).toEqual([
      ['svc_onOpen', false],
      ['svc_onChangeState', false],
    ]);
  });

  it('uninstall removes svc_api and svc_onLoadCallback never fires', async () => {
    const loaded = defineCallback('svc_onLoadCallback');
    const widget = install();
    widget.uninstall();
    await widget.ready;
    expect(page().svc_api).toBeUndefined();
    expect(loaded).toEqual([]);
  });
});
