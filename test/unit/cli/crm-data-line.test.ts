import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatPlatformEvent } from '../../../src/cli/render/platform-events.js';

const plain = new Chalk({ level: 0 });

describe("the platform's line for a chat_accepted reply's crm data", () => {
  it('says a bare {"result":"ok"} carried none, not that it was shown', () => {
    const line = formatPlatformEvent(
      { type: 'crm-data', chatId: 1, shown: true, protocolMs: 0 },
      plain,
    );
    expect(line).toContain('crm data: none in the chat_accepted reply');
    expect(line).toContain('/assign needs crm_link (spec 6.2)');
    expect(line).not.toContain('shown to the agent');
  });

  it('still shows the data a reply carried', () => {
    const line = formatPlatformEvent(
      {
        type: 'crm-data',
        chatId: 1,
        shown: true,
        crmLink: 'https://crm.example/c/1',
        protocolMs: 0,
      },
      plain,
    );
    expect(line).toContain('crm data shown to the agent');
    expect(line).toContain('[ Open in CRM ] https://crm.example/c/1');
  });
});
