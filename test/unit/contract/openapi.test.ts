/**
 * The OpenAPI 3.1 document: it passes an independent validator (@readme/openapi-parser) for
 * the whole document and each role's side, and carries every endpoint of the
 * channel, bot and hook interfaces with a filter per role.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../src/contract/api-docs/openapi.js';
import { API_ROLES } from '../../../src/contract/api-docs/operations.js';
import { BOT_HTTP_STATUSES } from '../../../src/contract/bot.js';
import { ALL_HOOK_EVENTS } from '../../../src/contract/hooks.js';
import { listKinds } from '../../../src/contract/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const whole: Json = buildOpenApi();

describe('openapi document', () => {
  it.each([undefined, ...API_ROLES])('role %s passes @readme/openapi-parser', async (role) => {
    const doc: Json = buildOpenApi(role === undefined ? {} : { role });
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('refuses a broken document (the validator is no rubber stamp)', async () => {
    const doc = structuredClone(whole);
    doc.paths['/{random_string}/{channel_public_id}'].post.responses = {};
    doc.paths['/{random_string}/{channel_public_id}/status'].get.parameters.pop();
    const result = await validate(doc as never);
    expect(result.valid).toBe(false);
  });

  it('has the platform paths, with the Authorization header on /providers', () => {
    expect(Object.keys(whole.paths).sort()).toEqual([
      '/oauth/token',
      '/providers/{provider_id}/{token}',
      '/webhooks/{provider_id}/{token}',
      '/{random_string}/{channel_public_id}',
      '/{random_string}/{channel_public_id}/status',
    ]);
    expect(whole.paths['/providers/{provider_id}/{token}'].post.security).toEqual([
      { bearerAuth: [] },
    ]);
    expect(whole.paths['/webhooks/{provider_id}/{token}'].post.security).toBeUndefined();
  });

  it('answers every status of spec 7.2 with an error body on the bot endpoints', () => {
    const responses = whole.paths['/webhooks/{provider_id}/{token}'].post.responses as Json;
    expect(Object.keys(responses).map(Number).sort()).toEqual([...BOT_HTTP_STATUSES].sort());
    for (const status of BOT_HTTP_STATUSES.filter((s) => s !== 200)) {
      expect(responses[status].description).toContain('spec 7.2');
      expect(responses[status].content['application/json'].schema.$ref).toMatch(
        /#\/components\/schemas\/(bot\.error|svc\.error-body)/,
      );
    }
  });

  it('has one webhook per hook event with its own reply, and the parties endpoints', () => {
    for (const event of ALL_HOOK_EVENTS) {
      const op = whole.webhooks[`hook.${event}`].post;
      expect(op.requestBody.content['application/json'].schema.$ref).toBe(
        `#/components/schemas/hook.${event}`,
      );
      expect(op.responses[200].content['application/json'].schema.$ref).toBe(
        `#/components/schemas/hook.${event}.reply`,
      );
    }
    expect(whole.webhooks.postAgentMessage.post.tags).toEqual(['A: chat channel', 'integrator']);
    expect(whole.webhooks.postProviderEvent.post.tags).toEqual(['B: bot', 'bot-provider']);
  });

  it('emits one role as paths', () => {
    const integrator: Json = buildOpenApi({ role: 'integrator' });
    expect(Object.keys(integrator.paths)).toEqual(['/{channel_public_id}']);
    expect(integrator.webhooks).toBeUndefined();
    const provider: Json = buildOpenApi({ role: 'bot-provider' });
    expect(Object.keys(provider.paths).sort()).toEqual(['/oauth/token', '/{token}']);
    const receiver: Json = buildOpenApi({ role: 'hook-receiver' });
    expect(Object.keys(receiver.paths)).toEqual(['/']);
    expect(Object.keys(receiver.webhooks)).toHaveLength(ALL_HOOK_EVENTS.length);
    const platform: Json = buildOpenApi({ role: 'platform' });
    expect(Object.keys(platform.paths)).toEqual(Object.keys(whole.paths));
    expect(platform.webhooks).toBeUndefined();
  });

  it('cites spec sections and takes examples from the valid samples', () => {
    const post = whole.paths['/{random_string}/{channel_public_id}'].post;
    expect(post.description).toContain('section 4.1');
    const examples = post.requestBody.content['application/json'].examples as Json;
    expect(examples['customer-text-minimal'].summary).toBe(
      'channel.customer.text: fixtures/payloads/channel/customer-text-minimal.valid.json',
    );
  });

  it('has a component per payload kind, generated from zod', () => {
    const schemas = whole.components.schemas as Json;
    for (const kind of listKinds()) expect(schemas[kind.name], kind.name).toBeDefined();
    expect(schemas['channel.customer.text'].$schema).toBeUndefined();
  });
});

describe('published files', () => {
  it('schemas/openapi.json and schemas/asyncapi.json are current (npm run build writes them)', async () => {
    const { readFileSync } = await import('node:fs');
    const { buildAsyncApi } = await import('../../../src/contract/api-docs/asyncapi.js');
    const read = (name: string): unknown =>
      JSON.parse(readFileSync(new URL(`../../../schemas/${name}`, import.meta.url), 'utf8'));
    expect(read('openapi.json')).toEqual(whole);
    expect(read('asyncapi.json')).toEqual(buildAsyncApi());
  });
});
