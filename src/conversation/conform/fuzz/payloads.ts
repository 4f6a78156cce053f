/**
 * The payloads the platform sends to each party, as generated arbitraries: every
 * hook event of spec 6.2 (offline_message under both spellings), and every agent message
 * kind of spec 2.2-2.4 (text, typein/typeout, the media types).
 */
import fc from 'fast-check';
import { MEDIA_TYPES } from '../../../contract/channel.js';
import { HOOK_EVENTS } from '../../../contract/hooks.js';
import { buildSampleHookEvent } from '../../../roles/hooks/samples.js';
import { buildAgentPayload, buildSampleMedia } from '../integrator.js';
import {
  payloadArbitrary,
  type Change,
  type Mutations,
  type PayloadArbitrary,
} from './arbitraries.js';

/** One arbitrary per hook event. */
export function hookArbitraries(changes?: number): PayloadArbitrary[] {
  return HOOK_EVENTS.map((event) =>
    payloadArbitrary(
      `hook.${event}`,
      buildSampleHookEvent(event),
      event === 'offline_message'
        ? [{ path: ['event_name'], arbitrary: fc.constant('offline_messages') }]
        : [],
      changes,
    ),
  );
}

/** One arbitrary per agent message kind the platform delivers to the integrator. */
export function agentMessageArbitraries(changes?: number): PayloadArbitrary[] {
  const base = (message: { type: string } & Record<string, unknown>) =>
    buildAgentPayload(message, 'fuzz-message-1') as Record<string, unknown>;
  return [
    payloadArbitrary(
      'channel.agent.text',
      base({ type: 'text', text: 'Hello from the agent' }),
      [],
      changes,
    ),
    payloadArbitrary(
      'channel.agent.typing',
      base({ type: 'typein' }),
      [{ path: ['message', 'type'], arbitrary: fc.constant('typeout') }],
      changes,
    ),
    ...MEDIA_TYPES.map((type) =>
      payloadArbitrary(`channel.agent.${type}`, base(buildSampleMedia(type)), [], changes),
    ),
  ];
}

/** Changes in one sweep case: edges of different places packed together, shrunk apart. */
const SWEEP_PACK = 6;

/**
 * The cases every run starts with, the same for every seed: each kind's plain sample, then
 * every edge of every kind, packed a few places a case and interleaved across kinds.
 */
export function sweepCases(
  payloads: readonly PayloadArbitrary[],
): { p: PayloadArbitrary; m: Mutations }[] {
  const plain = payloads.map((p) => ({ p, m: p.sweep()[0] ?? [] }));
  const packed = payloads.map((p) => {
    const out: (Change | undefined)[][] = [];
    for (const single of p.sweep().slice(1)) {
      const slot = single.findIndex((m) => m !== undefined);
      const into = out.find(
        (m) => m[slot] === undefined && m.filter((x) => x !== undefined).length < SWEEP_PACK,
      );
      if (into) into[slot] = single[slot];
      else out.push([...single]);
    }
    return out;
  });
  const interleaved: { p: PayloadArbitrary; m: Mutations }[] = [];
  for (let i = 0; packed.some((list) => i < list.length); i++)
    packed.forEach((list, k) => {
      const m = list[i];
      const p = payloads[k];
      if (m && p) interleaved.push({ p, m });
    });
  return [...plain, ...interleaved];
}
