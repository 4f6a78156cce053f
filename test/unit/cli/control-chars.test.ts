import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { escapeControlChars, escapeControlCharsIn } from '../../../src/cli/render/control-chars.js';
import { formatBotEvent } from '../../../src/cli/render/bot-events.js';
import { formatChatAgent } from '../../../src/cli/render/chat.js';
import { printError } from '../../../src/cli/render/errors.js';
import { createOutput } from '../../../src/cli/render/output.js';
import { formatStep } from '../../../src/cli/render/reporters/pretty.js';
import type { StepResult } from '../../../src/conversation/runner.js';
import { SvcError } from '../../../src/errors.js';

/** What a hostile peer puts in a text: clear the screen, set the title, ring, go back a line. */
const HOSTILE = 'hi\u001b[2J\u001b]0;owned\u0007\r\u009b31mthere';
const SHOWN = 'hi\\x1b[2J\\x1b]0;owned\\x07\\r\\x9b31mthere';

/** a control character a terminal acts on: C0 but \n and \t, DEL, C1 */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function memoryContext(): { ctx: CliContext; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.setEncoding('utf8').on('data', (d: string) => (o += d));
  err.setEncoding('utf8').on('data', (d: string) => (e += d));
  const ctx = {
    stdout: out,
    stderr: err,
    stdin: new PassThrough(),
    env: { NO_COLOR: '1' },
    cwd: process.cwd(),
    signal: new AbortController().signal,
    exitCode: 0,
  } as CliContext;
  return { ctx, stdout: () => o, stderr: () => e };
}

describe('escapeControlChars', () => {
  it('writes ESC, CR, BEL and C1 as escapes, keeps line feed, tab and other text', () => {
    expect(escapeControlChars(HOSTILE)).toBe(SHOWN);
    expect(escapeControlChars('a\tb\nc é 😀')).toBe('a\tb\nc é 😀');
    expect(escapeControlChars('\u0000\u007f')).toBe('\\x00\\x7f');
  });

  it('with oneLine, line feed and tab too', () => {
    expect(escapeControlChars('a\tb\nc', { oneLine: true })).toBe('a\\tb\\nc');
  });

  it('hands back text without one as it is, and an event without one as the same object', () => {
    const event = { type: 'x', text: 'plain', nested: [{ body: 'ok' }] };
    expect(escapeControlCharsIn(event)).toBe(event);
  });

  it('escapes every string of an event at any depth, leaving the event as it was', () => {
    const event = { type: 'x', n: 1, reply: { error: { message: HOSTILE } }, list: [HOSTILE] };
    const shown = escapeControlCharsIn(event);
    expect(shown).toEqual({ type: 'x', n: 1, reply: { error: { message: SHOWN } }, list: [SHOWN] });
    expect(event.list[0]).toBe(HOSTILE);
  });
});

describe('peer text on its way to the terminal', () => {
  it('Output.event escapes what a formatter lays out; --json keeps the text as sent', async () => {
    const human = memoryContext();
    const out = createOutput(human.ctx, {});
    out.event(
      {
        type: 'chat-agent',
        agent: 'Anna',
        recipient: 'c',
        message: { type: 'text', text: HOSTILE },
      },
      formatChatAgent,
    );
    out.event({ type: 'odd', body: HOSTILE });
    out.note(`the peer said ${HOSTILE}`);
    await out.flush();
    expect(human.stdout()).toContain(`Anna: ${SHOWN}`);
    expect(human.stdout()).not.toMatch(RAW);
    expect(human.stderr()).toContain(SHOWN);
    expect(human.stderr()).not.toMatch(RAW);

    const machine = memoryContext();
    const json = createOutput(machine.ctx, { json: true });
    json.event({ type: 'odd', body: HOSTILE });
    await json.flush();
    expect(JSON.parse(machine.stdout()) as unknown).toEqual({ type: 'odd', body: HOSTILE });
  });

  it('a bot reply in the platform log', async () => {
    const { ctx, stdout } = memoryContext();
    const out = createOutput(ctx, {});
    out.event(
      {
        type: 'bot-message',
        protocolMs: 0,
        chatId: 1,
        sender: 'bot',
        customerId: 'c-1',
        text: HOSTILE,
        messageType: 'TEXT',
        fallback: false,
      } as unknown as Parameters<typeof formatBotEvent>[0],
      formatBotEvent,
    );
    await out.flush();
    expect(stdout()).toContain('\\x1b[2J');
    expect(stdout()).not.toMatch(RAW);
  });

  it('an error quoting a peer, and a failed step whose details quote it', () => {
    const { ctx, stderr } = memoryContext();
    printError(
      ctx,
      new SvcError('SVC_E_UNREACHABLE', `Could not send: the peer said ${HOSTILE}.`),
      {
        json: false,
      },
    );
    expect(stderr()).toContain(SHOWN);
    expect(stderr()).not.toMatch(RAW);
    const step = {
      index: 0,
      name: 'expect integrator text',
      status: 'failed',
      protocolMs: 0,
      details: [`got ${HOSTILE}`],
    } as unknown as StepResult;
    const line = formatStep(step, createOutput(memoryContext().ctx, {}).chalk);
    expect(line).toContain(`got ${SHOWN}`);
    expect(line).not.toMatch(RAW);
  });
});
