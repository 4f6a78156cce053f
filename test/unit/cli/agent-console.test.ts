import { afterEach, describe, expect, it } from 'vitest';
import {
  CONSOLE_HELP,
  consoleChatsOf,
  createAddressee,
  parseConsoleLine,
} from '../../../src/cli/console/agent-console.js';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatformCore, type PlatformCore } from '../../../src/platform/index.js';
import { closeChat, findChat } from '../../../src/platform/agent.js';

describe('agent console lines', () => {
  it.each([
    ['/call +49301234567', { kind: 'call', phone: '+49301234567' }],
    // the number as the bad-phone hint writes it (SVC_E_PHONE: "Example: +49 30 1234567")
    ['/call +49 30 1234567', { kind: 'call', phone: '+49 30 1234567' }],
    [
      '/call +49 30 1234567 error no answer @c-7',
      { kind: 'call', phone: '+49 30 1234567', errorReason: 'no answer', customerId: 'c-7' },
    ],
    ['/call', { kind: 'error', message: '/call <phone> [error <reason>]' }],
    ['/call +49301234567 error', { kind: 'error', message: '/call <phone> [error <reason>]' }],
    ['/call error busy', { kind: 'error', message: '/call <phone> [error <reason>]' }],
    // chat's console quits with /quit; this one says how the platform stops
    ['/quit', { kind: 'error', message: 'no /quit here: Ctrl-C stops the platform' }],
    ['/exit', { kind: 'error', message: 'no /exit here: Ctrl-C stops the platform' }],
    [
      '/location 95 10 @c-7',
      {
        kind: 'error',
        message: 'Not sent: latitude "95" must be at most 90. /location <latitude> <longitude>',
      },
    ],
    [
      '/location 55.75 37.62',
      { kind: 'media', message: { type: 'location', latitude: 55.75, longitude: 37.62 } },
    ],
  ])('%s', (line, action) => {
    expect(parseConsoleLine(line)).toEqual(action);
  });

  it('a file with or without its size (the command asks the server for one not typed)', () => {
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg cat.jpg 48213')).toEqual({
      kind: 'media',
      message: {
        type: 'photo',
        file: 'https://cdn.example/cat.jpg',
        file_name: 'cat.jpg',
        file_size: 48213,
      },
    });
    // a malformed escape in the URL is no crash of the simulator: the name is taken as typed
    expect(parseConsoleLine('/media photo http://x/a%E0%A4%A.png 12')).toMatchObject({
      message: { file_name: 'a%E0%A4%A.png', file_size: 12 },
    });
    // a lone number after the URL is its size
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg 999')).toMatchObject({
      message: { file_name: 'cat.jpg', file_size: 999 },
    });
    expect(parseConsoleLine('/media photo https://cdn.example/cat.jpg @c-1')).toEqual({
      kind: 'media',
      customerId: 'c-1',
      message: { type: 'photo', file: 'https://cdn.example/cat.jpg', file_name: 'cat.jpg' },
    });
  });

  it('/media with a type it does not know names the type meant, then the usage', () => {
    expect(parseConsoleLine('/media image https://cdn.example/cat.jpg')).toEqual({
      kind: 'error',
      message: expect.stringMatching(
        /^"image" is not a media type \(spec 2\.4\); did you mean photo\? \/media </,
      ),
    });
    expect(parseConsoleLine('/media photo')).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^\/media </),
    });
  });

  it('a command name typed without its slash is sent, with a hint', () => {
    const hint = '(a plain line answers the customer; /help lists the console commands)';
    expect(parseConsoleLine('help')).toEqual({ kind: 'say', text: 'help', hint });
    expect(parseConsoleLine(' Quit ')).toEqual({ kind: 'say', text: 'Quit', hint });
    expect(parseConsoleLine('help me please')).toEqual({ kind: 'say', text: 'help me please' });
    expect(parseConsoleLine('@c-1 help')).toEqual({ kind: 'say', customerId: 'c-1', text: 'help' });
  });

  it('/help fits an 80-column terminal and says how to stop', () => {
    for (const line of CONSOLE_HELP.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(CONSOLE_HELP).toMatch(/type: video, audio, voice, photo, sticker\s+or document/);
    expect(CONSOLE_HELP).toMatch(/Ctrl-C stops the platform\.$/);
  });

  it('answers, with or without a customer', () => {
    expect(parseConsoleLine('Hello there')).toEqual({ kind: 'say', text: 'Hello there' });
    expect(parseConsoleLine('@c-42 Hello')).toEqual({
      kind: 'say',
      customerId: 'c-42',
      text: 'Hello',
    });
  });

  it('// sends a line starting with /, as in chat; a lone / is still a command', () => {
    expect(parseConsoleLine('//etc/hosts is the file')).toEqual({
      kind: 'say',
      text: '/etc/hosts is the file',
    });
    expect(parseConsoleLine('/etc/hosts is the file')).toEqual({
      kind: 'error',
      message:
        'unknown console command /etc/hosts; /help lists them (// sends a line starting with /)',
    });
    expect(CONSOLE_HELP).toMatch(/^ {2}\/\/<text> +answer with a line starting with \/$/m);
  });

  it('names the command a mistyped one meant', () => {
    expect(parseConsoleLine('/asign')).toEqual({
      kind: 'error',
      message:
        'unknown console command /asign (did you mean /assign?); /help lists them (// sends a line starting with /)',
    });
    expect(parseConsoleLine('/ofline')).toMatchObject({
      message: expect.stringContaining('(did you mean /offline?)') as unknown,
    });
  });
});

describe('the last active customer follows whom the agent last addressed', () => {
  const cores: PlatformCore[] = [];
  afterEach(async () => {
    await Promise.all(cores.splice(0).map((c) => c.stop()));
  });

  it('after @c-1, /typing on goes to c-1 until another customer writes', async () => {
    const clock = createVirtualClock();
    const core = createPlatformCore({ clock, channels: [{ id: 'ch', randomString: 'r' }] });
    cores.push(core);
    /** a customer writes now, as the channel service stamps it */
    const writes = (senderId: string) => {
      const customer = {
        key: `ch/${senderId}`,
        channelId: 'ch',
        senderId,
        clientId: String(501 + core.state.customers.size),
        visitorNumber: core.state.customers.size + 1,
      };
      core.state.customers.set(customer.key, customer);
      core.openChat(customer).chat.lastActivityMs = clock.now();
    };
    /** the customer an action reaches: the one it names, else the platform's default */
    const address = createAddressee(consoleChatsOf(core));
    const reaches = (line: string) => {
      const act = address(parseConsoleLine(line)) as { customerId?: string };
      return findChat(core, act.customerId === undefined ? {} : { customerId: act.customerId })
        .customer.senderId;
    };
    writes('c-1');
    await clock.advance(1000);
    writes('c-2');
    await clock.advance(1000);
    expect(reaches('@c-1 just for you')).toBe('c-1');
    expect(reaches('/typing on')).toBe('c-1');
    expect(reaches('and a plain line')).toBe('c-1');
    // a customer with no open chat is refused when sent to, and moves the agent nowhere
    await clock.advance(1000);
    expect(address(parseConsoleLine('@nobody hi'))).toMatchObject({ customerId: 'nobody' });
    expect(reaches('still for c-1')).toBe('c-1');
    await clock.advance(1000);
    writes('c-2');
    expect(reaches('/typing on')).toBe('c-2');
    // /chats and /agents name no customer and change nothing
    expect(address(parseConsoleLine('/chats'))).toEqual({ kind: 'chats' });
  });

  it('after the addressed chat closes, a plain line goes to no other customer', async () => {
    const clock = createVirtualClock();
    const core = createPlatformCore({ clock, channels: [{ id: 'ch', randomString: 'r' }] });
    cores.push(core);
    const writes = (senderId: string) => {
      const customer = {
        key: `ch/${senderId}`,
        channelId: 'ch',
        senderId,
        clientId: String(501 + core.state.customers.size),
        visitorNumber: core.state.customers.size + 1,
      };
      core.state.customers.set(customer.key, customer);
      core.openChat(customer).chat.lastActivityMs = clock.now();
    };
    const address = createAddressee(consoleChatsOf(core));
    writes('c9');
    await clock.advance(1000);
    writes('12345');
    await clock.advance(1000);
    expect(address(parseConsoleLine('@12345 hi numeric'))).toMatchObject({ customerId: '12345' });
    expect(address(parseConsoleLine('a plain line'))).toMatchObject({ customerId: '12345' });
    closeChat(core, { customerId: '12345' });
    await clock.advance(1000);
    expect(address(parseConsoleLine('after close'))).toMatchInlineSnapshot(`
      {
        "kind": "error",
        "message": "Not sent: no open chat to answer (the chat with 12345 is closed).
        Pick a customer: @<customer> <text> (/chats lists them)",
      }
    `);
    expect(address(parseConsoleLine('/typing on'))).toMatchObject({ kind: 'error' });
    // naming a customer still works, and a customer who writes is answered again
    expect(address(parseConsoleLine('@c9 hello'))).toMatchObject({ customerId: 'c9' });
    closeChat(core, { customerId: 'c9' });
    await clock.advance(1000);
    writes('12345');
    expect(address(parseConsoleLine('back again'))).toEqual({ kind: 'say', text: 'back again' });
  });

  it('a plain line to the last writer puts the agent in that chat: once closed, no other', async () => {
    const clock = createVirtualClock();
    const core = createPlatformCore({ clock, channels: [{ id: 'ch', randomString: 'r' }] });
    cores.push(core);
    const writes = (senderId: string) => {
      const customer = {
        key: `ch/${senderId}`,
        channelId: 'ch',
        senderId,
        clientId: String(501 + core.state.customers.size),
        visitorNumber: core.state.customers.size + 1,
      };
      core.state.customers.set(customer.key, customer);
      core.openChat(customer).chat.lastActivityMs = clock.now();
    };
    const address = createAddressee(consoleChatsOf(core));
    writes('a');
    await clock.advance(1000);
    writes('b');
    await clock.advance(1000);
    // no @ yet: the line goes to b, who wrote last, and /close closes b's chat
    expect(address(parseConsoleLine('hello'))).toEqual({ kind: 'say', text: 'hello' });
    expect(address(parseConsoleLine('/close'))).toEqual({ kind: 'close', customerId: 'b' });
    closeChat(core, { customerId: 'b' });
    await clock.advance(1000);
    // a, who never was answered, does not get the line meant for b
    expect(address(parseConsoleLine('thanks for waiting'))).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('the chat with b is closed') as unknown,
    });
    // a writes again: answered as the last writer
    writes('a');
    expect(address(parseConsoleLine('hi a'))).toEqual({ kind: 'say', text: 'hi a' });
  });
});
