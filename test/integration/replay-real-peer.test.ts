/**
 * replay with a real peer (--integrator-url): the conversations whose setup makes the
 * embedded peer misbehave do not apply and are skipped with the reason; the others run on a
 * real clock, their timing figures matched within the stated tolerance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { loadConversations } from '../../src/conversation/load.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function realIntegrator(): Promise<string> {
  const listener: Listener = await createListener({ clock: createClock({ timeScale: 0.05 }) });
  closers.push(() => listener.close(10));
  return listener.url;
}

describe('replay --integrator-url (a real integrator)', () => {
  it('skips a conversation whose setup.integrator.faults the real peer cannot play', async () => {
    const integratorUrl = await realIntegrator();
    const [recovered] = await loadConversations([
      'fixtures/conversations/redelivery-recovered.json',
    ]);
    const result = await replayConversation({
      conversation: recovered!.conversation,
      integratorUrl,
      timeScale: 0.05,
    });
    expect(result.ok).toBe(true);
    expect(result.skipped).toBe(
      'its setup.integrator.faults make the embedded listen misbehave; the real peer (--integrator-url) answers as it does',
    );
  });

  it('states the real-time tolerance its timing figures are matched within', async () => {
    // offsetMs and elapsedMs of events and verdicts match within it (runner.ts); a real clock
    // is never exactly on 0, 3, 6 s. The fixture here has no timing figure: no test times
    const integratorUrl = await realIntegrator();
    const [text] = await loadConversations(['fixtures/conversations/text-both-ways.json']);
    const result = await replayConversation({
      conversation: text!.conversation,
      integratorUrl,
      timeScale: 0.05,
    });
    expect(result.ok).toBe(true);
    expect(result.timingToleranceMs).toBe(250);
  });
});
