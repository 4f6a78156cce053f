/**
 * The OpenAPI document at work in the ecosystem: openapi-backend, a generic request validator
 * that knows nothing of svc-cli, routes each sample of fixtures/payloads to its operation and
 * accepts or refuses it; its verdict must agree with `validate` and with the sample's name.
 *
 * openapi-backend routes `paths` only, so the test mounts each webhook (what the platform
 * sends to the other parties) at `/_webhooks/<name>`, and the hook receiver's one URL (from
 * the hook-receiver side) at `/_hook-url`. Widget samples (interface C) have no HTTP route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OpenAPIBackend } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../src/contract/api-docs/openapi.js';
import { readExpectation } from '../../../src/contract/expectations.js';
import { isPayloadFile } from '../../../src/contract/inputs.js';
import { validate, validateAuto } from '../../../src/contract/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const root = path.resolve(import.meta.dirname, '../../../fixtures/payloads');
const list = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? list(path.join(dir, e.name))
      : isPayloadFile(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
const samples = list(root).filter((f) => !f.includes(`${path.sep}widget${path.sep}`));

function definition(): Json {
  const doc: Json = structuredClone(buildOpenApi());
  for (const [name, item] of Object.entries(doc.webhooks as Json)) {
    doc.paths[`/_webhooks/${name}`] = item;
  }
  const receiver: Json = buildOpenApi({ role: 'hook-receiver' });
  doc.paths['/_hook-url'] = receiver.paths['/'];
  delete doc.webhooks;
  return doc;
}

/** A request (or a reply to check against a response) for a sample of a kind. */
type Route =
  | { request: { method: string; path: string }; operationId: string }
  | { response: { operationId: string; status: number } };

const BOT_TO_PLATFORM = ['BOT_MESSAGE', 'INVITE_AGENT', 'CLIENT_INFO'];

function routeOf(kind: string, folder: string, value: Json): Route {
  const post = (p: string, operationId: string): Route => ({
    request: { method: 'post', path: p },
    operationId,
  });
  if (kind.startsWith('channel.customer.')) return post('/r4nd0m/ch-1', 'postCustomerMessage');
  if (kind.startsWith('channel.agent.'))
    return post('/_webhooks/postAgentMessage', 'postAgentMessage');
  if (kind === 'channel.integrator.reply')
    return { response: { operationId: 'postAgentMessage', status: 200 } };
  if (kind === 'channel.status')
    return { response: { operationId: 'getChannelStatus', status: 200 } };
  if (kind === 'bot.error') return { response: { operationId: 'postBotEvent', status: 400 } };
  if (/^hook\.\w+\.reply$/.test(kind))
    return { response: { operationId: kind.replace(/\.reply$/, ''), status: 200 } };
  if (kind.startsWith('hook.')) return post(`/_webhooks/${kind}`, kind);
  if (kind.startsWith('bot.event.')) {
    const event = kind.slice('bot.event.'.length);
    return BOT_TO_PLATFORM.includes(event)
      ? post('/webhooks/prov-1/tok-1', 'postBotEvent')
      : post('/_webhooks/postProviderEvent', 'postProviderEvent');
  }
  // no kind could be told (an unknown event): the route its folder's party serves
  if (folder === 'hooks') return post('/_hook-url', 'postHookEvent');
  if (folder === 'channel')
    return 'recipient' in value
      ? post('/_webhooks/postAgentMessage', 'postAgentMessage')
      : post('/r4nd0m/ch-1', 'postCustomerMessage');
  if (folder === 'bot')
    return typeof value.event === 'string' && value.event.startsWith('BOT')
      ? post('/webhooks/prov-1/tok-1', 'postBotEvent')
      : post('/_webhooks/postProviderEvent', 'postProviderEvent');
  throw new Error(`no route for ${kind} in ${folder}`);
}

let api: OpenAPIBackend;
beforeAll(async () => {
  // quick: openapi-backend's own definition check knows only the OpenAPI 3.0 schema and
  // refuses 3.1 (`description` beside `$ref`, webhooks); the 3.1 document is checked by
  // @readme/openapi-parser in openapi.test.ts. Routing and validation support 3.1.
  api = new OpenAPIBackend({ definition: definition() as never, strict: true, quick: true });
  await api.init();
});

describe('openapi-backend agrees with validate on every fixture', () => {
  it('has samples of each HTTP interface', () => {
    expect(samples.length).toBeGreaterThan(100);
  });

  it.each(samples.map((f) => [path.relative(root, f), f]))('%s', async (_name, file) => {
    const expectation = await readExpectation(file);
    const value = JSON.parse(readFileSync(file, 'utf8')) as Json;
    const ours = expectation?.kind ? validate(expectation.kind, value) : validateAuto(value);
    const folder = path.relative(root, file).split(path.sep)[0]!;
    const route = routeOf(ours.kind, folder, value);
    let valid: boolean;
    let errors: unknown;
    if ('request' in route) {
      const request = {
        ...route.request,
        headers: { 'content-type': 'application/json' },
        body: value,
      };
      const operation = api.matchOperation(request);
      expect(operation?.operationId, 'routed to the right operation').toBe(route.operationId);
      const result = api.validateRequest(request, operation);
      ({ valid, errors } = result);
    } else {
      const result = api.validateResponse(value, route.response.operationId, route.response.status);
      ({ valid, errors } = result);
    }
    expect(valid, JSON.stringify(errors)).toBe(ours.ok);
    // and both agree with what the sample's name says
    expect(valid).toBe(expectation?.verdict !== 'invalid');
  });

  it('refuses a body on a route it does not belong to', () => {
    const request = {
      method: 'post',
      path: '/webhooks/prov-1/tok-1',
      headers: { 'content-type': 'application/json' },
      body: JSON.parse(readFileSync(path.join(root, 'bot/client-message.valid.json'), 'utf8')),
    };
    expect(api.validateRequest(request).valid).toBe(false);
  });
});
