/**
 * Each cross-interface invariant x {replay, conform}: the test that plants a bug for it in a
 * test peer, proves it caught (the rule and both exchanges named) and passes when fixed, or why
 * there is none yet. The table is the one in docs/trace.md's "Which test plants what"; this test
 * keeps it honest: every invariant has a row, and every test named exists and names the rule.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANT_NAMES, type InvariantName } from '../../src/trace/invariants.js';
import { repoRoot } from '../helpers/run-cli.js';

type Cell = { tests: string[]; peer: string } | { missing: string };

export const INVARIANT_TABLE: Record<InvariantName, { replay: Cell; conform: Cell }> = {
  transcript: {
    replay: {
      tests: ['test/integration/replay-invariants.test.ts'],
      peer: 'simulator mutant transcript-repeats-redelivered: chat_finished lists a redelivered agent message once per attempt',
    },
    conform: {
      tests: ['test/integration/conform-invariants.test.ts'],
      peer: 'conform platform: a platform whose hook relay logs each agent line twice',
    },
  },
  'bot-after-close': {
    replay: {
      tests: ['test/integration/replay-invariants.test.ts'],
      peer: 'the platform redelivers a CLIENT_MESSAGE after CHAT_CLOSED',
    },
    conform: {
      tests: [
        'test/integration/conform-peer-invariants.test.ts',
        'test/e2e/conform-peer-invariants.test.ts',
      ],
      peer: "conform bot, the bot's side: a bot that posts BOT_MESSAGE after CHAT_CLOSED",
    },
  },
  'hook-after-finish': {
    replay: {
      tests: [
        'test/integration/replay-invariants.test.ts',
        'test/integration/trace.test.ts',
        'test/e2e/trace.test.ts',
      ],
      peer: 'the platform assigns a closed chat: chat_assigned after chat_finished',
    },
    conform: {
      tests: ['test/integration/conform-invariants.test.ts'],
      peer: 'conform platform: a platform that sends chat_updated after chat_finished',
    },
  },
  'agent-joined': {
    replay: {
      tests: ['test/integration/replay-invariants.test.ts'],
      peer: 'the agent takes over a bot chat: AGENT_JOINED without INVITE_AGENT or a hand-over',
    },
    conform: {
      tests: ['test/integration/conform-invariants.test.ts', 'test/e2e/conform-invariants.test.ts'],
      peer: "conform platform --bot-listen-port: simulator mutant agent-joined-unasked, which sends conform's bot AGENT_JOINED before the first CLIENT_MESSAGE, with no INVITE_AGENT and no hand-over",
    },
  },
  'redelivery-id': {
    replay: {
      tests: ['test/integration/replay-invariants.test.ts'],
      peer: 'simulator mutant redeliver-new-id: each redelivery of an agent message to the integrator carries a new message id',
    },
    conform: {
      tests: [
        'test/integration/conform-invariants.test.ts',
        'test/unit/conform/link-redeliveries.test.ts',
        'test/e2e/conform-invariants.test.ts',
      ],
      peer: "conform platform: simulator mutant redeliver-new-id, whose redeliveries to conform's listener (which refuses the first attempts) carry a new message id",
    },
  },
  'handover-budget': {
    replay: {
      tests: ['test/integration/replay-invariants.test.ts'],
      peer: 'a platform whose bot policy asks a silent bot for 9 s (3 attempts) instead of 6',
    },
    conform: {
      tests: ['test/integration/conform-peer-invariants.test.ts'],
      peer: "conform bot, the bot's side: a bot whose INVITE_AGENT comes 10 s after the CLIENT_MESSAGE",
    },
  },
  'offline-message': {
    replay: {
      tests: ['test/integration/trace.test.ts'],
      peer: 'simulator mutant offline-form-while-online: the offline form taken with agents online',
    },
    conform: {
      tests: ['test/integration/conform-invariants.test.ts'],
      peer: "conform platform against an svc simulator: simulator mutant offline-form-while-online; conform sets agents online (control API) and sends the offline form on the simulator's page-script channel as the page would",
    },
  },
  'callback-order': {
    replay: {
      tests: [
        'test/integration/replay-page.test.ts',
        'test/e2e/replay-page.test.ts',
        'test/integration/mutants.test.ts',
      ],
      peer: 'a page (setup.page.hold) that runs svc_onAccept after the call ended; simulator mutant widget-push-ids-rewind under page steps whose visitor is called back before the agent accepts',
    },
    conform: {
      tests: ['test/integration/conform-invariants.test.ts', 'test/e2e/conform-invariants.test.ts'],
      peer: "conform platform against an svc simulator: simulator mutant widget-push-ids-rewind numbers the visitor's stream from 1 again at the agent's accept, so the page conform attaches reports svc_onAccept for a push numbered below the call's end it reported before",
    },
  },
};

describe('the invariant table', () => {
  it('has a row for every invariant', () => {
    expect(Object.keys(INVARIANT_TABLE).sort()).toEqual([...INVARIANT_NAMES].sort());
  });

  for (const [name, row] of Object.entries(INVARIANT_TABLE))
    for (const [by, cell] of Object.entries<Cell>(row))
      it(`${name} x ${by}: ${'tests' in cell ? cell.tests.join(', ') : 'missing, with the reason'}`, () => {
        if ('missing' in cell) {
          expect(cell.missing.length).toBeGreaterThan(40);
          return;
        }
        for (const test of cell.tests) {
          const path = join(repoRoot, test);
          expect(existsSync(path), test).toBe(true);
          expect(readFileSync(path, 'utf8'), `${test} names ${name}`).toContain(name);
        }
      });
});
