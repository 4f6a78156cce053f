/**
 * How the simulator reads an integrator's reply (spec 2.2, 8) against a foreign integrator
 * (test/peers/integrator.py, Python's standard library): by the spec, only a valid reply ends
 * the series; under the docs profile, by the status class the public Chat API page gives (any
 * 2xx accepted, a 4xx rejected and not resent, anything else resent). docs/FIDELITY.md.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { coreOptionsOf, DOCS_PROFILE, settingsOf } from '../../src/platform/profile.js';
import { sendAgentMessage, type AgentMessageResult } from '../../src/platform/index.js';
import {
  hasPython,
  NO_PYTHON,
  removeForeignState,
  startForeignPeer,
  type ForeignPeer,
} from '../helpers/foreign-peer.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';

const peers: ForeignPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
});
afterAll(removeForeignState);

/** The integrator in `mode`, a simulator reading its replies as `profile` says, one customer. */
async function setup(mode: string, profile: 'spec' | 'docs', timeScale = 0.5) {
  const peer = await startForeignPeer({ kind: 'python-integrator', mode });
  peers.push(peer);
  // a real clock, scaled: a peer in another process answers in real time. At 1/5 (3 s ->
  // 600 ms) the Python peer's first answer beside a 2-core CPU hog (busy-test) came after the
  // attempt's time: a 4xx read as a timeout and resent. At 1/2 an attempt has 1.5 s; a test
  // that counts three attempts whatever each one's answer runs at 1/5 (its series is 6 s)
  const clock = createClock({ timeScale });
  const harness = await startPlatform({
    clock,
    channels: [{ id: 'shop', integratorUrl: peer.url }],
    ...(profile === 'docs' ? coreOptionsOf(settingsOf(DOCS_PROFILE)) : {}),
  });
  expect((await post(harness.channelUrl, customerText('c-7', 'Where is my order?'))).status).toBe(
    200,
  );
  const result: AgentMessageResult = await sendAgentMessage(harness.platform.core, {
    customerId: 'c-7',
    message: { type: 'text', text: 'Checking it now' },
  });
  return { result, harness };
}

describe.skipIf(!hasPython)(
  `an integrator reply read by the docs profile${hasPython ? '' : ` (skipped: ${NO_PYTHON})`}`,
  () => {
    it('the docs profile reads replies by status class; the spec profile does not', () => {
      expect(settingsOf(DOCS_PROFILE).channelReplies).toBe('docs');
      expect(coreOptionsOf(settingsOf({ version: 1, name: 'spec' }))).not.toHaveProperty(
        'channelReplies',
      );
    });

    it('spec: a 200 whose body is a JSON string is no valid reply, resent 3 times', async () => {
      const { result, harness } = await setup('encoded', 'spec');
      expect(result).toMatchObject({ result: 'failed', attempts: 3 });
      expect(harness.of('delivery-attempt')[0]!.reason).toContain('invalid reply shape');
    });

    it('docs: the same 200 is delivered once, with a warning naming spec 2.2', async () => {
      const { result, harness } = await setup('encoded', 'docs');
      expect(result).toMatchObject({ result: 'delivered', attempts: 1 });
      const attempts = harness.of('delivery-attempt');
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ outcome: 'accepted', status: 200 });
      expect(attempts[0]!.warning).toContain('invalid reply shape');
      expect(attempts[0]!.warning).toContain('taken as delivered');
    });

    it('docs: a 4xx is not resent; the agent sees its text at once', async () => {
      const { result, harness } = await setup('reject', 'docs');
      expect(result).toMatchObject({ result: 'failed', attempts: 1 });
      expect(result.agentNotice).toContain('HTTP 422: unknown recipient');
      expect(harness.of('delivery-attempt')).toHaveLength(1);
      expect(harness.of('delivery-done')[0]).toMatchObject({ result: 'failed', attempts: 1 });
    });

    it('spec: the same 4xx is resent as any other invalid reply', async () => {
      const { result } = await setup('reject', 'spec', 0.2);
      expect(result).toMatchObject({ result: 'failed', attempts: 3 });
    });

    it('docs: a 500 is still resent, 3 attempts in all', async () => {
      const { result, harness } = await setup('crash', 'docs', 0.2);
      expect(result).toMatchObject({ result: 'failed', attempts: 3 });
      expect(harness.of('delivery-attempt').map((a) => a.attempt)).toEqual([1, 2, 3]);
    });
  },
);
