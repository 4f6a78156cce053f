/**
 * The payloads the platform sends to each party (issue 17), as generated arbitraries: every
 * hook event of spec 6.2 (offline_message under both spellings), and every agent message
 * kind of spec 2.2-2.4 (text, typein/typeout, the media types).
 */
import fc from 'fast-check';
import { MEDIA_TYPES } from '../../../contract/channel.js';
import { HOOK_EVENTS } from '../../../contract/hooks.js';
import { buildSampleHookEvent } from '../../../roles/hooks/samples.js';
import { buildAgentPayload, buildSampleMedia } from '../integrator.js';
import { payloadArbitrary, type PayloadArbitrary } from './arbitraries.js';

/** One arbitrary per hook event. */
export function hookArbitraries(): PayloadArbitrary[] {
  return HOOK_EVENTS.map((event) =>
    payloadArbitrary(
      `hook.${event}`,
      buildSampleHookEvent(event),
      event === 'offline_message'
        ? [{ path: ['event_name'], arbitrary: fc.constant('offline_messages') }]
        : [],
    ),
  );
}

/** One arbitrary per agent message kind the platform delivers to the integrator. */
export function agentMessageArbitraries(): PayloadArbitrary[] {
  const base = (message: { type: string } & Record<string, unknown>) =>
    buildAgentPayload(message, 'fuzz-message-1') as Record<string, unknown>;
  return [
    payloadArbitrary('channel.agent.text', base({ type: 'text', text: 'Hello from the agent' })),
    payloadArbitrary('channel.agent.typing', base({ type: 'typein' }), [
      { path: ['message', 'type'], arbitrary: fc.constant('typeout') },
    ]),
    ...MEDIA_TYPES.map((type) =>
      payloadArbitrary(`channel.agent.${type}`, base(buildSampleMedia(type))),
    ),
  ];
}
