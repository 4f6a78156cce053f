import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../src/error-codes.js';
import { SvcError } from '../../../src/errors.js';
import { KINDS } from '../../../src/contract/registry.js';
import { INVARIANT_NAMES } from '../../../src/trace/invariants.js';
import { RULE_CODES } from '../../../src/contract/rule-codes.js';
import { validate } from '../../../src/contract/validate.js';
import { MUTANTS } from '../../../src/platform/mutants.js';
import { explain, explainTopics } from '../../../src/reference/explain.js';
import { fieldRows } from '../../../src/reference/fields.js';
import { explainCommandFor } from '../../../src/reference/hint.js';
import { sectionIds } from '../../../src/reference/render.js';

const thrown = (words: string[]): SvcError => {
  try {
    explain(words);
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error(`explain ${words.join(' ')} did not throw`);
};

describe('svc-cli explain answers for every catalogue entry', () => {
  it('every section', () => {
    for (const id of sectionIds()) {
      const e = explain([id]);
      expect(e.topic, id).toBe('section');
    }
    expect(explain(['spec', '2.5'])).toMatchObject({ topic: 'section', section: '2.5' });
    // a section's note, as conform cites it ("spec 4.4, 6.2 note"), quoted or not
    expect(explain(['6.2 note'])).toMatchObject({ topic: 'section', section: '6.2' });
    expect(explain(['6.2', 'note'])).toMatchObject({ topic: 'section', section: '6.2' });
    // another word after a section is the word not understood, not the section
    expect(() => explain(['2.5', 'extra'])).toThrow(
      'Could not explain "2.5 extra": a section takes no second word ("extra").',
    );
  });

  it('every kind, and every field of every kind', () => {
    for (const kind of KINDS.keys()) {
      expect(explain([kind])).toMatchObject({ topic: 'kind', kind });
      for (const row of fieldRows(kind)) {
        if (row.path === '(body)') continue;
        expect(explain([kind, row.path]), `${kind} ${row.path}`).toMatchObject({ topic: 'field' });
      }
    }
    expect(explain(['BOT_MESSAGE'])).toMatchObject({ kind: 'bot.event.BOT_MESSAGE' });
  });

  it('a field path as messages write it, with indexes', () => {
    const e = explain(['bot.event.BOT_MESSAGE', 'message.buttons[3].id']);
    expect(e).toMatchObject({ topic: 'field', path: 'message.buttons[].id' });
    expect(explain(['hook.chat_finished', 'chat.messages'])).toMatchObject({
      topic: 'field',
      path: 'chat.messages',
    });
  });

  it('every error code and every rule code, with what to do', () => {
    for (const code of Object.keys(ERRORS)) {
      const e = explain([code]);
      expect(e, code).toMatchObject({ topic: 'error', code });
      if (e.topic === 'error') expect(e.todo.length).toBeGreaterThan(5);
    }
    for (const code of Object.keys(RULE_CODES))
      expect(explain([code]), code).toMatchObject({ topic: 'rule', code });
    expect(explain(['warn:type_drift'])).toMatchObject({ topic: 'rule', code: 'type_drift' });
  });

  it('every invariant, with its section and the commands that check it', () => {
    for (const name of INVARIANT_NAMES)
      expect(explain([name]), name).toMatchObject({ topic: 'invariant', name });
    expect(explain(['hook-after-finish'])).toMatchObject({
      section: '6.2',
      checkedBy: ['replay', 'conform platform', 'proxy', 'trace', 'report'],
    });
    // a rule on the whole run: the commands that keep only chats do not check it
    expect(explain(['offline-message'])).toMatchObject({
      section: '3',
      checkedBy: ['replay', 'conform platform'],
    });
    // a page is needed: replay's page steps, conform platform's page case, a recording
    expect(explain(['callback-order'])).toMatchObject({
      section: '6.4',
      checkedBy: ['replay', 'conform platform', 'trace', 'report'],
    });
    // conform bot judges these two from the bot's side (src/trace/peer-rules.ts)
    expect(explain(['bot-after-close'])).toMatchObject({
      checkedBy: [
        'replay',
        'conform platform',
        "conform bot (the bot's side)",
        'proxy',
        'trace',
        'report',
      ],
    });
  });

  it('every simulator mutant, with its section, deviation and survivor hint', () => {
    for (const m of MUTANTS)
      expect(explain([m.name]), m.name).toMatchObject({
        topic: 'mutant',
        name: m.name,
        family: m.family,
        section: m.spec,
        deviation: m.deviation,
        survivor: m.survivor,
      });
    expect(explain(['duplicate-agent-message'])).toMatchObject({
      section: '2.2',
      exercisedBy: ['kind:channel.agent.text'],
    });
    // a typo is suggested the mutant it nearly names
    expect(explainTopics()).toContain('flip-chunked');
    expect(thrown(['duplicate-agent-mesage']).hint).toContain('duplicate-agent-message');
  });

  it('suggests the closest names for an unknown one (exit 2)', () => {
    const error = thrown(['type_drfit']);
    expect(error.code).toBe('SVC_E_UNKNOWN_TOPIC');
    expect(error.category).toBe('input');
    expect(error.hint).toContain('type_drift');
    expect(thrown(['hook.chat_finished', 'chat.mesages']).hint).toContain(
      'hook.chat_finished chat.messages',
    );
  });

  it('with no argument lists what it explains, an example each', () => {
    const e = explain([]);
    expect(e.topic).toBe('topics');
    if (e.topic !== 'topics') return;
    expect(e.groups.map((g) => g.example)).toEqual(
      expect.arrayContaining(['2.5', 'type_drift', 'SVC_E_UNTRUSTED_CERT', 'mutants']),
    );
    for (const g of e.groups)
      expect(explain(g.example.split(' ')).topic, g.example).not.toBe('topics');
  });

  it('a section number gets the nearest sections; a far word gets the list, not guesses', () => {
    expect(thrown(['9.9']).hint).toMatch(/^The spec has sections 1 to 9; the nearest: 9, 8, 7\.$/);
    expect(thrown(['2.9']).details).toEqual({ suggestions: ['2.6', '2.5', '2.4'] });
    const far = thrown(['nonsense']);
    expect(far.details).toEqual({ suggestions: [] });
    expect(far.hint).toMatch(/^Nothing matched; svc-cli explain answers to:\n/);
    expect(far.hint).toContain('svc-cli explain type_drift');
  });

  it('a plain word gets the sections that speak of it, those naming it in their heading first', () => {
    const typing = thrown(['typing']);
    expect(typing.details).toEqual({
      suggestions: [],
      sections: expect.arrayContaining(['2.3', '4.1']),
    });
    expect((typing.details as { sections: string[] }).sections[0]).toBe('2.3');
    expect(typing.hint).toMatch(/^The contract speaks of "typing" in: 2\.3 Typing notices; /);
    expect(typing.hint).toContain('(svc-cli explain 2.3)');
    // a page script method as the page calls it: the contract's word for it
    expect(thrown(['svc_api.startCall']).hint).toMatch(
      /^The contract speaks of "startCall" in: 4\.5 Page script methods/,
    );
    // beside a suggestion, and a word with a hyphen is a word, not a pattern
    const redelivery = thrown(['redelivery']);
    expect(redelivery.hint).toMatch(
      /Did you mean redelivery-id, no-redelivery\?\n {2}The contract speaks of "redelivery" in: .*8\. Limits and timing/,
    );
    expect(thrown(['hand-over']).details).toMatchObject({
      sections: expect.arrayContaining(['3']),
    });
    // words under four letters are no search
    expect(thrown(['bot']).details).not.toHaveProperty('sections');
  });

  it('names the one explain command that helps with an issue', () => {
    const issue = { code: 'empty', path: 'sender.id', spec: '2.1' };
    expect(explainCommandFor(issue, 'channel.customer.text')).toBe(
      'svc-cli explain channel.customer.text sender.id',
    );
    expect(explainCommandFor({ ...issue, code: 'warn:type_drift' })).toBe(
      'svc-cli explain type_drift',
    );
    expect(explainCommandFor({ code: 'x', path: '', spec: '8' })).toBe('svc-cli explain 8');
  });

  it('points a guard issue at its rule: the path is no field of the kind', () => {
    const text = { sender: { id: 'c-1' }, message: { type: 'text', text: 'Hi' } };
    const deep = JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) as unknown;
    const payloads = [
      JSON.parse('{"sender":{"id":"c-1","__proto__":{}},"message":{"type":"text","text":"Hi"}}'),
      { ...text, a: deep },
    ] as unknown[];
    const hints = payloads.map((payload) => {
      const issue = validate('channel.customer.text', payload).errors[0];
      if (issue === undefined) throw new Error('no guard issue');
      const command = explainCommandFor(issue, 'channel.customer.text');
      // the hint validate prints must run: explain answers it
      expect(() => explain(command.split(' ').slice(2))).not.toThrow();
      return command;
    });
    expect(hints).toEqual(['svc-cli explain forbidden_key', 'svc-cli explain too_deep']);
  });
});
