/**
 * The AsyncAPI 3.0 document passes @asyncapi/parser (spec schema plus its Spectral rules) with
 * no error or warning, and shares its schema components with the OpenAPI document.
 */
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { buildAsyncApi } from '../../../src/contract/api-docs/asyncapi.js';
import { buildOpenApi } from '../../../src/contract/api-docs/openapi.js';
import { HOOK_EVENTS } from '../../../src/contract/hooks.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc: Json = buildAsyncApi();
const parser = new Parser();

async function problems(document: Json): Promise<string[]> {
  const { diagnostics } = await parser.parse(JSON.stringify(document));
  // severity 2 and 3 are information and hints (e.g. "3.1.0 exists"): 3.0 is what is asked
  return diagnostics
    .filter((d) => Number(d.severity) <= 1) // 0 error, 1 warning
    .map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`);
}

describe('asyncapi document', () => {
  // Each parse compiles the AsyncAPI schemas anew (seconds here), so one parse answers both
  // questions: a copy of the document with one mistake planted (an operation sending a message
  // its channel does not carry) shows that mistake, which proves the parser is no rubber
  // stamp, and nothing else, which proves the rest of the document clean. The mistake touches
  // one operation's message list; the messages themselves stay in their channels, checked.
  it('passes @asyncapi/parser: a planted mistake is found, and nothing else', async () => {
    const planted = structuredClone(doc);
    planted.operations.sendAgentMessage.messages = [
      { $ref: '#/channels/hookEvents/messages/hook.chat_accepted' },
    ];
    const found = await problems(planted);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^asyncapi3-operation-messages-from-referred-channel at operations\.sendAgentMessage\.messages/,
    );
  }, 60_000);

  it('shares the schema components with the OpenAPI document', () => {
    const openapi: Json = buildOpenApi();
    expect(doc.components.schemas).toEqual(openapi.components.schemas);
  });

  it('has the flows: agent messages with redelivery, bot events both ways, hooks with replies', () => {
    const ops = doc.operations as Json;
    expect(ops.sendAgentMessage['x-svc-redelivery']).toMatchObject({
      attempts: 3,
      intervalSeconds: 3,
    });
    expect(ops.receiveBotEvent.action).toBe('receive');
    expect(ops.sendBotEvent.action).toBe('send');
    for (const event of HOOK_EVENTS) {
      expect(ops[`sendHook.${event}`].reply.messages).toEqual([
        { $ref: `#/channels/hookEvents/messages/hook.${event}.reply` },
      ]);
    }
    expect(doc.components.messages['channel.customer.text'].examples.length).toBeGreaterThan(0);
  });
});
