/**
 * The OpenAPI 3.1 document of every HTTP endpoint of interfaces A, B and D, rendered at run
 * time from the operation table and the zod-generated components (never a hand-written copy).
 *
 * Shape: `paths` are what the described party serves; what the platform calls on the other
 * parties (agent messages, bot events, hook events) are OpenAPI 3.1 `webhooks` in the whole
 * document, and become `paths` when one role's side is asked for (`--role integrator`), so
 * Prism or Schemathesis can mock or test that party's server. Hooks stay webhooks, one per
 * event with its own reply, and the hook receiver's one URL is also a path taking any event.
 */
import { buildComponentSchemas, refTo } from './components.js';
import { collectExamples, type PayloadExample } from './examples.js';
import {
  API_OPERATIONS,
  PATH_PARAMETERS,
  SERVER_DESCRIPTIONS,
  serverVariable,
  type ApiOperation,
  type ApiResponse,
  type ApiRole,
} from './operations.js';
import { ALL_HOOK_EVENTS } from '../hooks.js';
import { readPackageVersion } from '../../package-files.js';

type Json = Record<string, unknown>;

export interface BuildApiDocOptions {
  /** only this party's side; default: the whole document */
  role?: ApiRole;
  /** where the valid samples are read for examples (default: the package's fixtures/payloads) */
  payloadsDir?: string;
}

export const INTERFACE_TAGS = {
  A: {
    name: 'A: chat channel',
    description: 'Chat channel interface (spec 1.2, 2.1-2.4, 4.1, 4.2)',
  },
  B: {
    name: 'B: bot',
    description: 'Bot provider interface (spec 1.4, 2.5, 4.3, 5.2, 5.3, 6.1, 7.2)',
  },
  D: { name: 'D: event hooks', description: 'Server-side event hooks (spec 1.6, 2.6, 4.4, 6.2)' },
} as const;

export const ROLE_TAG_DESCRIPTIONS: Record<ApiRole, string> = {
  platform: 'served by the platform (svc-cli platform simulates it)',
  integrator: "served by the integrator's chat back end (svc-cli listen simulates it)",
  'bot-provider': 'served by the bot provider (svc-cli bot-sim simulates it)',
  'hook-receiver': 'served at the hook URL (svc-cli hook-target simulates it)',
};

const specRefs = (spec: readonly string[]): string =>
  `Spec: ${spec.map((s) => `section ${s}`).join(', ')} of the integration interfaces.`;

function schemaOf(kinds: readonly string[]): Json {
  return kinds.length === 1 ? refTo(kinds[0]!) : { anyOf: kinds.map(refTo) };
}

function examplesOf(kinds: readonly string[], examples: Map<string, PayloadExample[]>): Json {
  const out: Json = {};
  for (const kind of kinds) {
    for (const example of examples.get(kind) ?? []) {
      let key = example.name;
      for (let n = 2; key in out; n++) key = `${example.name}-${n}`;
      out[key] = { summary: `${kind}: fixtures/payloads/${example.file}`, value: example.value };
    }
  }
  return out;
}

function mediaOf(kinds: readonly string[], examples: Map<string, PayloadExample[]>): Json {
  const media: Json = { schema: schemaOf(kinds) };
  const found = examplesOf(kinds, examples);
  if (Object.keys(found).length > 0) media.examples = found;
  return media;
}

function renderResponse(response: ApiResponse, examples: Map<string, PayloadExample[]>): Json {
  const out: Json = { description: response.description };
  if (response.kinds) out.content = { 'application/json': mediaOf(response.kinds, examples) };
  if (response.headers) {
    out.headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, description]) => [
        name,
        { description, schema: { type: 'integer', minimum: 0 } },
      ]),
    );
  }
  return out;
}

function renderOperation(
  op: ApiOperation,
  examples: Map<string, PayloadExample[]>,
  asWebhook: boolean,
): Json {
  const where = `${op.method.toUpperCase()} {${serverVariable(op)}}${op.path === '/' ? '' : op.path}`;
  const operation: Json = {
    operationId: op.id,
    summary: op.summary,
    description: `${where}\n\n${op.description}\n\n${specRefs(op.spec)}`,
    tags: [INTERFACE_TAGS[op.iface].name, op.role],
    'x-svc-interface': op.iface,
    'x-svc-role': op.role,
    'x-svc-spec': [...op.spec],
  };
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  // a webhook has no path of its own: its URL is in the description
  if (!asWebhook && names.length > 0) {
    operation.parameters = names.map((name) => ({
      name,
      in: 'path',
      required: true,
      description: PATH_PARAMETERS[name] ?? name,
      schema: { type: 'string', minLength: 1 },
    }));
  }
  if (op.requestKinds) {
    const media = mediaOf(op.requestKinds, examples);
    operation.requestBody = {
      required: true,
      content: op.form
        ? { 'application/x-www-form-urlencoded': media, 'application/json': media }
        : { 'application/json': media },
    };
  }
  operation.responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => [status, renderResponse(r, examples)]),
  );
  // spec 5.3: the Authorization header as a security scheme
  if (op.authorization === 'required') operation.security = [{ bearerAuth: [] }];
  if (op.authorization === 'optional') operation.security = [{}, { bearerAuth: [] }];
  return operation;
}

/** The hook receiver's one URL, taking any hook event (spec 4.4). */
function hookUrlOperation(): ApiOperation {
  return {
    id: 'postHookEvent',
    role: 'hook-receiver',
    iface: 'D',
    spec: ['4.4', '6.2'],
    method: 'post',
    path: '/',
    summary: 'Any hook event',
    description:
      'One URL receives every hook event; event_name tells them apart. The reply per event is ' +
      'in the webhooks of this document (spec 6.2).',
    requestKinds: ALL_HOOK_EVENTS.map((e) => `hook.${e}`),
    responses: {
      200: {
        description: 'the reply of the event (spec 6.2)',
        kinds: ALL_HOOK_EVENTS.map((e) => `hook.${e}.reply`),
      },
    },
  };
}

function serverOf(variable: string): Json {
  return {
    url: `{${variable}}`,
    description: SERVER_DESCRIPTIONS[variable] ?? variable,
    variables: { [variable]: { default: 'http://127.0.0.1:8080' } },
  };
}

/**
 * The OpenAPI 3.1 document (whole, or one role's side).
 * @example JSON.stringify(buildOpenApi({ role: 'integrator' }))
 */
export function buildOpenApi(options: BuildApiDocOptions = {}): Json {
  const examples = collectExamples(options.payloadsDir);
  const role = options.role;
  const served = API_OPERATIONS.filter((op) =>
    role === undefined ? op.role === 'platform' : op.role === role,
  );
  const called =
    role === undefined
      ? API_OPERATIONS.filter((op) => op.role !== 'platform')
      : role === 'hook-receiver'
        ? served
        : [];
  const pathOps = role === 'hook-receiver' ? [hookUrlOperation()] : served;

  const paths: Json = {};
  for (const op of pathOps) {
    const item = (paths[op.path] ??= {}) as Json;
    item[op.method] = renderOperation(op, examples, false);
    // the channel host and the bot host differ: each path names its own server
    if (role === undefined || role === 'platform') item.servers = [serverOf(serverVariable(op))];
  }
  const webhooks: Json = {};
  for (const op of called) {
    webhooks[op.id] = { [op.method]: renderOperation(op, examples, true) };
  }
  const used = [...pathOps, ...called];
  const ifaces = [...new Set(used.map((op) => op.iface))].sort();
  const roles = [...new Set(used.map((op) => op.role))];

  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title:
        role === undefined
          ? 'svc platform integration interfaces (A chat channel, B bot, D event hooks)'
          : `svc platform integration interfaces: the ${role} side`,
      version: readPackageVersion(),
      summary: 'Generated by svc-cli from its zod schemas of the spec; do not edit.',
      description:
        'Every HTTP endpoint of interfaces A, B and D of the customer-conversation platform ' +
        '(interface C is a page script, without HTTP). Paths are what this side serves; ' +
        'webhooks are the requests the platform makes to the other parties. Payload schemas ' +
        'accept fields the spec does not list; svc-cli validate warns about them. Examples are ' +
        'the valid samples of svc-cli fixtures/payloads.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [serverOf(pathOps[0] ? serverVariable(pathOps[0]) : 'base_url')],
    tags: [
      ...ifaces.map((i) => INTERFACE_TAGS[i]),
      ...roles.map((r) => ({ name: r, description: ROLE_TAG_DESCRIPTIONS[r] })),
    ],
    paths,
  };
  if (Object.keys(webhooks).length > 0) doc.webhooks = webhooks;
  doc.components = {
    schemas: buildComponentSchemas(),
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'spec 5.3: the temporary access token in the Authorization header, obtained by the ' +
          'token exchange (assumed OAuth2 client credentials at POST /oauth/token).',
      },
    },
  };
  return doc;
}
