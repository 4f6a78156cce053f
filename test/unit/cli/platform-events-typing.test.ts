import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatPlatformEvent } from '../../../src/cli/render/platform-events.js';
import type { PlatformEvent } from '../../../src/platform/events.js';

const plain = new Chalk({ level: 0 });
const typing = (on: boolean): PlatformEvent => ({
  type: 'agent-message',
  chatId: 9,
  customerId: 'c-9',
  deliveryId: 'm-1',
  kind: 'channel.agent.typing',
  typing: on,
  agent: 'Alice Agent',
  protocolMs: 0,
});

describe("the platform's log of an agent's typing", () => {
  it('says whether /typing on started it or /typing off stopped it', () => {
    expect(formatPlatformEvent(typing(true), plain)).toContain('to c-9  typing started');
    expect(formatPlatformEvent(typing(false), plain)).toContain('to c-9  typing stopped');
  });
});

describe("the platform's log of a customer payload it could not read", () => {
  it('leaves no gap where a message of an unknown type has no kind', () => {
    const line = formatPlatformEvent(
      {
        type: 'violation',
        source: 'channel',
        issues: [{ path: 'message.type', rule: 'type "typing" is not text; ignored', spec: '2.3' }],
        outcome: 'ignored',
        protocolMs: 0,
      } as PlatformEvent,
      plain,
    );
    expect(line?.split('\n')[0]).toMatch(/ ✗ channel ignored$/);
  });
});
