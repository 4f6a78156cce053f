// The WEAK suite: it runs the bridge's main paths and checks little. It stays green under most
// simulator mutants: `svc-cli mutate` names them (test/e2e/mutate-examples.test.ts asserts which).
import { describe, expect, it } from 'vitest';
import { useShop } from './harness.mjs';

const shop = useShop();

describe('bridge (weak suite)', () => {
  it('sends a customer message', async () => {
    await shop.bridge.send('c-1', 'hello');
    expect(shop.sim.received.length).toBe(1);
  });

  it('shows an agent answer', async () => {
    await shop.bridge.send('c-1', 'hello');
    await shop.agentSays('c-1', { type: 'text', text: 'Hi' });
    expect(shop.bridge.inbox('c-1').length).toBeGreaterThan(0);
  });

  it('shows the chat button while agents are online', async () => {
    expect(await shop.bridge.agentsOnline()).toBe(true);
  });
});
