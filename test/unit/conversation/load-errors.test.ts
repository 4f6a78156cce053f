/**
 * A fixture step that fits no step shape (zod reports one "Invalid input" for the union):
 * the loader names the fields of the step's own shape, the one its key names.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConversation, loadEveryConversation } from '../../../src/conversation/load.js';
import { SvcError } from '../../../src/errors.js';

async function loadError(step: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'x.json');
  writeFileSync(file, JSON.stringify({ version: 1, name: 'x', steps: [step] }));
  try {
    await loadConversation(file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('loaded');
}

describe('a step that fits no shape', () => {
  it.each([
    [{ customer: { text: 'hi', sender: { id: 42 } } }, ['steps.0.customer.sender.id: ']],
    [
      { control: { method: 'PUT', path: 5 } },
      ['steps.0.control.method: ', 'steps.0.control.path: '],
    ],
    [{ agent: { text: 'a', to: 1, wait: 'yes' } }, ['steps.0.agent.to: ', 'steps.0.agent.wait: ']],
    [
      { customer: { text: 1, typing: 'x', media: 3 } },
      ['steps.0.customer.text: ', 'steps.0.customer.typing: ', 'steps.0.customer.media: '],
    ],
  ])('%j: its own fields are named, no other shape', async (step, named) => {
    const message = await loadError(step);
    for (const part of named) expect(message).toContain(part);
    // a second reader found a control step blamed on the customer shape (fewest issues, tie)
    expect(message).not.toMatch(/Unrecognized key|received undefined/);
  });
});

describe('an unknown key inside a step', () => {
  it('is named with the key of that shape it is closest to, or the keys it takes', async () => {
    const message = await loadSteps([
      { customer: { txt: 'hi', sendr: { id: 'c-1' } } },
      { agent: { text: 'a', zzzzzz: 1 } },
      { expect: { hook: 'chat_accepted', withn: 3 } },
    ]);
    expect(message).toContain('steps.0.customer.txt: unknown key (did you mean "text"?)');
    expect(message).toContain('steps.0.customer.sendr: unknown key (did you mean "sender"?)');
    expect(message).toMatch(/steps\.1\.agent\.zzzzzz: unknown key \(known keys: "text", [^)]*"to"/);
    expect(message).toContain('steps.2.expect.withn: unknown key (did you mean "within"?)');
    expect(message).not.toContain('Unrecognized key');
  });

  it('an expectation that names nothing to expect is refused at load, not at its turn', async () => {
    const message = await loadSteps([{ expect: {} }, { expect: { within: 100 } }]);
    expect(message).toContain('steps.0.expect: names nothing to expect (one of "integrator",');
    expect(message).toContain('steps.1.expect: names nothing to expect');
  });

  it('an expectation that names two parties is refused: the run waited for the first alone', async () => {
    const message = await loadSteps([
      { customer: { text: 'hi', sender: { id: 'c-1' } } },
      { expect: { hook: 'chat_finished', integrator: {} } },
    ]);
    expect(message).toContain(
      'steps.1.expect: names "integrator" and "hook", and an expectation waits for one (write one expect step each)',
    );
  });
});

/** The message of loading these steps, or 'loaded'. */
async function loadSteps(steps: unknown[]): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'refs.json');
  writeFileSync(file, JSON.stringify({ version: 1, name: 'refs', steps }));
  try {
    await loadConversation(file, 'refs.json');
  } catch (error) {
    return (error as Error).message;
  }
  return 'loaded';
}

describe('a ${step.path} reference', () => {
  const customer = { customer: { text: 'hi', sender: { id: 'c-1' } } };
  const reply = { name: 'reply', agent: { text: 'Hello.' } };

  it('to an earlier step loads', async () => {
    const expectId = { expect: { integrator: { message: { id: '${reply.deliveryId}' } } } };
    expect(await loadSteps([customer, reply, expectId])).toBe('loaded');
  });

  it('to a name no step has is refused with the file, the step and the closest name', async () => {
    const expectId = { expect: { integrator: { message: { id: '${replay.deliveryId}' } } } };
    expect(await loadSteps([customer, reply, expectId])).toBe(
      'Could not load refs.json: steps.2.expect.integrator.message.id: "${replay.deliveryId}" names no step "replay" (did you mean "reply"?).',
    );
    const far = { control: { method: 'POST', path: '/_sim/chats/${zzz.chatId}/close' } };
    expect(await loadSteps([customer, reply, far])).toBe(
      'Could not load refs.json: steps.2.control.path: "${zzz.chatId}" names no step "zzz" (the named steps before it: "reply").',
    );
  });

  it('to a later step, or to its own, is refused saying so', async () => {
    const early = { expect: { integrator: { message: { id: '${reply.deliveryId}' } } } };
    expect(await loadSteps([customer, early, reply])).toBe(
      'Could not load refs.json: steps.1.expect.integrator.message.id: "${reply.deliveryId}" reads step "reply", which comes later (steps.2).',
    );
    const own = { ...reply, delivery: { result: 'delivered', chatId: '${reply.chatId}' } };
    expect(await loadSteps([customer, own])).toBe(
      'Could not load refs.json: steps.1.delivery.chatId: "${reply.chatId}" reads step "reply", this step itself.',
    );
  });

  it('an expectation\'s "after" is checked the same way, at load, not at its turn', async () => {
    const hook = (after: string): unknown => ({ expect: { hook: 'chat_accepted', after } });
    expect(await loadSteps([customer, reply, hook('reply')])).toBe('loaded');
    expect(await loadSteps([customer, reply, hook('replay')])).toBe(
      'Could not load refs.json: steps.2.expect.after: names no step "replay" (did you mean "reply"?).',
    );
    expect(await loadSteps([customer, hook('reply'), reply])).toBe(
      'Could not load refs.json: steps.1.expect.after: reads step "reply", which comes later (steps.2).',
    );
  });
});

describe('a value the run reads as a name or a number', () => {
  const customer = { customer: { text: 'hi', sender: { id: 'c-1' } } };
  const reply = { name: 'reply', agent: { text: 'Hello.' } };

  it('a misspelt delivery result is named with the one meant', async () => {
    const message = await loadSteps([customer, { ...reply, delivery: { result: 'deliverd' } }]);
    expect(message).toContain(
      'steps.1.delivery.result: "deliverd" is no delivery result (did you mean "delivered"?)',
    );
  });

  it('a duration where ms are counted says what to write', async () => {
    const message = await loadSteps([customer, { ...reply, delivery: { elapsedMs: '6s' } }]);
    expect(message).toContain(
      'steps.1.delivery.elapsedMs: "6s" is not a number (protocol ms: write 6000)',
    );
  });

  it('a misspelt hook event or page callback, alone, in an object or in an order', async () => {
    expect(await loadSteps([customer, { expect: { hook: 'chat_finishd' } }])).toContain(
      'steps.1.expect.hook: "chat_finishd" is no hook event (spec 6.2) (did you mean "chat_finished"?)',
    );
    expect(
      await loadSteps([customer, { expect: { hook: { event_name: 'chat_acepted' } } }]),
    ).toContain('(did you mean "chat_accepted"?)');
    expect(await loadSteps([customer, { expect: { page: 'svc_onAcept' } }])).toContain(
      'steps.1.expect.page: "svc_onAcept" is no page callback (spec 6.4) (did you mean "svc_onAccept"?)',
    );
    expect(
      await loadSteps([customer, { expect: { order: ['hook:chat_accepted', 'page:onAccept'] } }]),
    ).toContain('steps.1.expect.order.1: "onAccept" is no page callback (spec 6.4)');
  });

  it('known names, the field table spelling and references load', async () => {
    expect(
      await loadSteps([
        customer,
        { ...reply, delivery: { result: 'delivered', attempts: 1, elapsedMs: 0 } },
        { expect: { hook: 'offline_messages', within: 10 } },
        { expect: { order: ['hook:chat_accepted', 'integrator:agent-message'] } },
        { expect: { integrator: { message: { id: '${reply.deliveryId}' } } } },
      ]),
    ).toBe('loaded');
  });
});

describe('a recording given where a conversation belongs', () => {
  const record = {
    type: 'exchange',
    seq: 1,
    run: 'r1',
    at: '2026-11-30T08:00:00.000Z',
    protocolMs: 0,
    iface: 'channel',
    direction: 'in',
    request: { method: 'POST', url: 'http://127.0.0.1:1/x', body: '{}' },
    response: { status: 200, body: '{"result":"ok"}' },
  };
  it.each([
    [
      'session.ndjson',
      `${JSON.stringify(record)}\n${JSON.stringify({ ...record, seq: 2 })}\n`,
      'a journal',
    ],
    [
      'session.har',
      JSON.stringify({ log: { version: '1.2', entries: [] } }, null, 2),
      'a HAR recording',
    ],
  ])('%s: says what it is and the command that converts it', async (name, text, what) => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), name);
    writeFileSync(file, text);
    const error = await loadConversation(file).catch((e: unknown) => e as SvcError);
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).message).toContain(`it is ${what}`);
    expect((error as SvcError).hint).toBe(
      `Turn it into one, then replay that: svc-cli record to-fixture ${file} --out conversation.json`,
    );
  });
  it('a within with no unit (or one it does not take) says the forms it takes', async () => {
    // it said "expected number, received string", pointing away from "2s"
    for (const within of ['2', '1m'])
      expect(await loadError({ expect: { event: { type: 'x' }, within } })).toContain(
        `steps.0.expect.within: must be protocol ms (2000) or a string with ms or s ("2s", "500ms"), got "${within}"`,
      );
  });
  it("says a path's step index counts from 0, as replay numbers steps from 1", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'x.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'x',
        steps: [{ customer: { text: 'hi', sender: { id: 'c' } } }, { agent: { txt: 'x' } }],
      }),
    );
    const error = await loadConversation(file).then(
      () => undefined,
      (e: unknown) => e as SvcError,
    );
    expect(error?.hint).toMatch(/^steps\.1 counts from 0: it is the step replay shows as "2\."/);
  });
});

describe('a folder of conversations', () => {
  it('walks a link back up the tree once, and passes over a dangling link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-loop-'));
    writeFileSync(
      join(dir, 'one.json'),
      JSON.stringify({ version: 1, name: 'one', steps: [{ customer: { text: 'hi' } }] }),
    );
    symlinkSync('.', join(dir, 'self')); // `replay /tmp` met /usr/bin/X11 -> . this way
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling.json'));
    const { loaded, failures } = await loadEveryConversation([dir], dir);
    expect(loaded.map((l) => l.file)).toEqual(['one.json']);
    expect(failures).toEqual([]);
  });

  it('a folder that cannot be read is an input error, not a bug', async () => {
    await expect(loadEveryConversation(['/no/such/folder'])).rejects.toMatchObject({
      code: 'SVC_E_READ',
      message: 'Could not read the conversation /no/such/folder: no such file or folder.',
    });
  });
});

describe('a step of no kind, two kinds, or with the check of another kind', () => {
  it.each([
    [
      { name: 'x' },
      'steps.0: says no kind of step (one of "customer", "agent", "agents", "close", "control", "bot", "redeliver", "page", "advance", "expect")',
    ],
    [
      { close: {}, agents: 'online' },
      'steps.0: holds "close" and "agents", and a step does one thing (write one step each)',
    ],
    [
      { agent: { text: 'a' }, response: { status: 200 } },
      'steps.0: "response" checks the answer to a customer, control, bot or redeliver step; this is an agent step, checked with "delivery"',
    ],
    [
      { customer: { text: 'a', sender: { id: 'c-1' } }, delivery: { result: 'delivered' } },
      'steps.0: "delivery" checks the delivery verdict of an agent step; this is a customer step, checked with "response"',
    ],
    [
      { close: {}, response: { status: 200 } },
      'steps.0: "response" checks the answer to a customer, control, bot or redeliver step; this is a close step, which takes no check',
    ],
  ])('%j says what the step is, not a key of another shape', async (step, line) => {
    const message = await loadSteps([step]);
    expect(message).toBe(`Could not load refs.json: ${line}.`);
    // zod tried every shape: "close: unknown key (did you mean "close"?)", an agents option
    expect(message).not.toMatch(/did you mean|Invalid option/);
  });
});

describe('an order entry that is no party:what label', () => {
  it.each([
    [
      'hooks:chat_accepted',
      '"hooks:chat_accepted" names no party "hooks" (did you mean "hook:chat_accepted"?)',
    ],
    [
      'chat_accepted',
      '"chat_accepted" is no party:what label, party one of hook, bot, integrator, event, page (e.g. hook:chat_accepted)',
    ],
  ])('%s is named with the label meant, or the parties', async (entry, line) => {
    const message = await loadSteps([{ expect: { order: [entry, 'hook:chat_finished'] } }]);
    expect(message).toBe(`Could not load refs.json: steps.0.expect.order.0: ${line}.`);
  });
});

describe('a payload given where a conversation is wanted', () => {
  it('is named a payload, with the validate command, not asked for a "version"', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'customer-text.json');
    writeFileSync(
      file,
      JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'Hi' } }),
    );
    const error = await loadConversation(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'SVC_E_CONVERSATION' });
    expect((error as SvcError).message).toBe(
      `Could not load ${file}: it is a payload (channel.customer.text), not a conversation.`,
    );
    expect((error as SvcError).hint).toContain(`svc-cli validate ${file}`);
    expect((error as SvcError).hint).not.toContain('Add "version"');
  });
});

it('a bot script (it has a "version") is not called a payload', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-load-')), 'bot.json');
  writeFileSync(
    file,
    JSON.stringify({ $schema: 'bot-script.schema.json', version: 1, name: 'b', rules: [] }),
  );
  await expect(loadConversation(file)).rejects.not.toThrow(/it is a payload/);
});
