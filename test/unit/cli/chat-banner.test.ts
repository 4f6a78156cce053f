/** `svc-cli chat` against a platform of the user's: what its banner tells them to configure. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatChatReady } from '../../../src/cli/render/chat.js';

describe('chat banner with a --channel-url', () => {
  it('says the integrator URL may take a path, as the platform adds /<channel id> to it', () => {
    const text = formatChatReady(
      {
        type: 'chat-ready',
        channelUrl: 'http://127.0.0.1:8800/s3cr3t/shop',
        integratorUrl: 'http://127.0.0.1:43101',
        senderId: 'c-1',
      },
      new Chalk({ level: 0 }),
    );
    expect(text.split('\n').slice(1, 4)).toEqual([
      '  agent messages  give the platform this integrator URL:',
      '                  http://127.0.0.1:43101',
      '                  (or it plus any path: the platform adds /<channel id>)',
    ]);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
