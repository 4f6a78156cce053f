/**
 * `conform hooks|integrator --fuzz N` (issue 17): property-based traffic from the contract
 * against a user's endpoint. Each generated payload (arbitraries.ts) is delivered as the
 * platform would, then delivered again as a redelivery would (spec 8), and four properties
 * are checked on the peer: it survives (no 5xx, reset or hang), it answers within the
 * spec's budget, its answer is valid for that request, and it answers the redelivery the
 * same way. fast-check shrinks a failure to the fewest mutations; the seed and path replay it
 * exactly (`--seed S --fuzz-path P`), and the minimal request is written to a file with the
 * command that reproduces it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import type { Clock } from '../../../clock.js';
import { validate } from '../../../contract/validate.js';
import { postJson, type PostOutcome } from '../../../http/client.js';
import {
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  judgeChannelReply,
} from '../../../platform/delivery.js';
import type { ConformCase } from '../case.js';
import type { PayloadArbitrary, Mutations } from './arbitraries.js';
import { plural } from '../../../plural.js';
import { agentMessageArbitraries, hookArbitraries } from './payloads.js';
import { HOOK_LIFECYCLE } from '../../../roles/hooks/samples.js';

/** spec 3: the order a chat's hooks come in; offline_message stands apart, last. */
const HOOK_ORDER: readonly string[] = [...HOOK_LIFECYCLE];

export const FUZZ_PROPERTIES = [
  'survives: no 5xx, no reset, no hang',
  'answers within the budget',
  'answers validly for the request',
  'answers a redelivery the same way',
] as const;
export type FuzzProperty = (typeof FUZZ_PROPERTIES)[number];

export interface FuzzSettings {
  /** generated cases (with `timeLimitMs` alone: as many as fit) */
  runs: number;
  /** wall ms after which no new case starts (`--fuzz-time`) */
  timeLimitMs?: number;
  /** after each case: how many ran so far */
  onCase?: (done: number) => void;
  /**
   * `--fuzz-stateful`: each case is a sequence of 2-8 payloads of one chat, in lifecycle
   * order (hooks) or as one conversation's agent messages (integrator), delivered in turn
   */
  stateful?: boolean;
  /** default: random, printed */
  seed?: number;
  /** fast-check's path of a failure: replays exactly that case */
  path?: string;
  /** where the minimal failing request is written (default .svc/failures) */
  failuresDir?: string;
  /** cwd the failures folder is relative to */
  cwd: string;
}

export interface FuzzTarget {
  suite: 'hooks' | 'integrator';
  url: string;
  clock: Clock;
  /** integrator: the channel public id in the path (spec 4.2) */
  channel?: string;
  /** hooks: protocol ms (default 10 s, assumed) */
  timeoutMs?: number;
}

export interface FuzzFailure {
  property: FuzzProperty;
  reasons: string[];
  kind: string;
  /** what the shrunk case changed in the kind's valid sample: `visitor.name = "😀"` */
  changes: string[];
  /** the minimal request, as sent */
  request: Record<string, unknown>;
  seed: number;
  path: string;
  shrinks: number;
  /** cases run before the failure */
  runs: number;
  /** files written and the commands that reproduce the failure */
  written: { file: string; command: string }[];
}

export interface FuzzSummary {
  runs: number;
  seed: number;
  failure?: FuzzFailure;
}

interface FuzzCase {
  p: PayloadArbitrary;
  m: Mutations;
}

export interface Broken {
  property: FuzzProperty;
  reasons: string[];
}

const shortBody = (text: string): string =>
  text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}…` : JSON.stringify(text);

/** What one delivery tells about the four properties (all but the redelivery one). */
function judge(
  target: FuzzTarget,
  kind: string,
  outcome: PostOutcome,
  budgetMs: number,
  attempt: string,
): Broken | undefined {
  if (!outcome.ok) {
    if (outcome.reason === 'timeout')
      return {
        property: 'answers within the budget',
        reasons: [`${attempt}: no answer within ${budgetMs} ms (spec 8)`],
      };
    return {
      property: 'survives: no 5xx, no reset, no hang',
      reasons: [`${attempt}: ${outcome.message}`],
    };
  }
  if (outcome.status >= 500)
    return {
      property: 'survives: no 5xx, no reset, no hang',
      reasons: [`${attempt}: HTTP ${outcome.status} ${shortBody(outcome.body)}`],
    };
  if (outcome.durationMs > budgetMs)
    return {
      property: 'answers within the budget',
      reasons: [
        `${attempt}: answered in ${Math.round(outcome.durationMs)} ms, over ${budgetMs} ms`,
      ],
    };
  const reasons = replyProblems(target, kind, outcome);
  return reasons.length === 0
    ? undefined
    : {
        property: 'answers validly for the request',
        reasons: reasons.map((r) => `${attempt}: ${r}`),
      };
}

function replyProblems(
  target: FuzzTarget,
  kind: string,
  outcome: Extract<PostOutcome, { ok: true }>,
): string[] {
  if (target.suite === 'integrator') {
    const judged = judgeChannelReply(outcome);
    return judged.accepted
      ? []
      : [
          `HTTP ${outcome.status} ${shortBody(outcome.body)} is no valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)`,
        ];
  }
  if (outcome.status !== 200)
    return [
      `HTTP ${outcome.status} ${shortBody(outcome.body)}; expected 200 with the event's reply (spec 4.4)`,
    ];
  const replyKind = `${kind.replace('offline_messages', 'offline_message')}.reply`;
  if (kind === 'hook.call_event' && outcome.body.trim() === '') return [];
  let reply: unknown;
  try {
    reply = JSON.parse(outcome.body);
  } catch {
    return [`the reply ${shortBody(outcome.body)} is not JSON (spec 6.2)`];
  }
  const result = validate(replyKind, reply);
  return result.errors.map(
    (e) => `reply ${e.path === '' ? '(root)' : e.path}: ${e.rule} (spec ${e.spec})`,
  );
}

/** The same answer, as the platform would judge it (status and acceptance). */
function sameAnswer(
  target: FuzzTarget,
  kind: string,
  first: Extract<PostOutcome, { ok: true }>,
  second: Extract<PostOutcome, { ok: true }>,
): string | undefined {
  if (first.status !== second.status)
    return `the first delivery got HTTP ${first.status}, the redelivery HTTP ${second.status}`;
  const a = replyProblems(target, kind, first).length === 0;
  const b = replyProblems(target, kind, second).length === 0;
  if (a !== b) return 'the first answer and the redelivery answer differ in validity';
  if (target.suite === 'integrator') {
    const errorOf = (o: Extract<PostOutcome, { ok: true }>) => {
      const judged = judgeChannelReply(o);
      return judged.accepted ? judged.errorReply : undefined;
    };
    const ea = errorOf(first);
    const eb = errorOf(second);
    if ((ea === undefined) !== (eb === undefined))
      return `the first answer was ${shortBody(first.body)}, the redelivery answer ${shortBody(second.body)}`;
  }
  return undefined;
}

/**
 * The fuzz cases of a suite: one per property, so JUnit lists each; the first runs the
 * generated traffic, the others report from the same run.
 * @example const { cases, summary } = buildFuzzCases(target, { runs: 300, cwd: '.' });
 */
export function buildFuzzCases(
  target: FuzzTarget,
  settings: FuzzSettings,
): { cases: ConformCase[]; summary: () => FuzzSummary | undefined } {
  const payloads = target.suite === 'hooks' ? hookArbitraries() : agentMessageArbitraries();
  const budgetMs =
    target.suite === 'hooks'
      ? (target.timeoutMs ?? HOOK_DELIVERY_POLICY.attemptTimeoutMs)
      : CHANNEL_DELIVERY_POLICY.attemptTimeoutMs;
  const url =
    target.suite === 'integrator'
      ? `${target.url.replace(/\/+$/, '')}/${encodeURIComponent(target.channel ?? 'conform')}`
      : target.url;
  const arbitrary = fc.oneof(...payloads.map((p) => p.arbitrary.map((m): FuzzCase => ({ p, m }))));
  let messageSeq = 0;

  const deliver = (body: Record<string, unknown>): Promise<PostOutcome> =>
    postJson({ url, body: JSON.stringify(body), timeoutMs: budgetMs, clock: target.clock });

  /** One payload delivered, then delivered again as a redelivery (spec 8). */
  const checkOne = async (
    c: FuzzCase,
    adjust?: (request: Record<string, unknown>) => void,
  ): Promise<Broken | undefined> => {
    const request = c.p.build(c.m);
    if (target.suite === 'integrator') {
      // each case is its own message; its redelivery keeps the id (spec 2.2, 8)
      const message = request.message as Record<string, unknown>;
      message.id = `fuzz-${++messageSeq}`;
    }
    adjust?.(request);
    const first = await deliver(request);
    const firstBroken = judge(target, c.p.kind, first, budgetMs, 'delivery');
    if (firstBroken) return firstBroken;
    const second = await deliver(request);
    const secondBroken = judge(target, c.p.kind, second, budgetMs, 'redelivery');
    if (secondBroken) return secondBroken;
    const differ = first.ok && second.ok ? sameAnswer(target, c.p.kind, first, second) : undefined;
    return differ
      ? { property: 'answers a redelivery the same way', reasons: [differ] }
      : undefined;
  };
  const spec = (name: FuzzProperty): string[] =>
    name.startsWith('answers within') || name.includes('redelivery')
      ? ['8']
      : target.suite === 'hooks'
        ? ['6.2']
        : ['2.2', '4.2'];
  const reproduce = (kind: string, request: Record<string, unknown>, seed: number) =>
    writeReproduction(target, settings, kind, request, seed);

  if (settings.stateful) {
    // a chat's traffic: hooks in lifecycle order with one chat id and visitor, or one
    // customer's agent messages; the sequence shrinks to its shortest failing prefix
    const order = (kind: string): number => {
      const at = HOOK_ORDER.indexOf(kind.replace(/^hook\./, ''));
      return at === -1 ? HOOK_ORDER.length : at;
    };
    const sequence = fc
      .array(arbitrary, { minLength: 2, maxLength: 8 })
      .map((steps) =>
        target.suite === 'hooks'
          ? [...steps].sort((a, b) => order(a.p.kind) - order(b.p.kind))
          : steps,
      );
    let chatSeq = 0;
    return propertyCases<FuzzCase[]>(
      {
        arbitrary: sequence,
        async check(steps) {
          const chat = ++chatSeq;
          const same = (request: Record<string, unknown>): void => {
            if (target.suite === 'hooks') {
              if ('chat_id' in request) request.chat_id = 90_000 + chat;
            } else if (request.recipient && typeof request.recipient === 'object') {
              (request.recipient as Record<string, unknown>).id = `fuzz-customer-${chat}`;
            }
          };
          for (const [index, step] of steps.entries()) {
            const broken = await checkOne(step, same);
            if (broken)
              return {
                ...broken,
                reasons: broken.reasons.map(
                  (r) => `step ${index + 1} of ${steps.length} (${step.p.kind}): ${r}`,
                ),
              };
          }
          return undefined;
        },
        describe(steps) {
          const requests = steps.map((step) => step.p.build(step.m));
          return {
            kind: `sequence of ${steps.length}: ${steps.map((step) => step.p.kind).join(', ')}`,
            request: { sequence: requests },
            changes: steps.flatMap((step, i) =>
              changesFrom(step.p.base, requests[i]).map((c) => `step ${i + 1} ${c}`),
            ),
          };
        },
        async reproduce(_kind, request, seed) {
          const list = (request.sequence as Record<string, unknown>[]) ?? [];
          const written: { file: string; command: string }[] = [];
          for (const [i, step] of list.entries()) {
            const kind =
              target.suite === 'hooks' ? `hook.${String(step.event_name)}` : 'channel.agent';
            for (const w of await writeReproduction(
              target,
              settings,
              kind,
              step,
              seed,
              `-step${i + 1}`,
            ))
              written.push(w);
          }
          return written;
        },
        spec,
      },
      settings,
    );
  }

  return propertyCases(
    {
      arbitrary,
      check: (c) => checkOne(c),
      describe(c) {
        const request = c.p.build(c.m);
        return { kind: c.p.kind, request, changes: changesFrom(c.p.base, request) };
      },
      reproduce,
      spec,
    },
    settings,
  );
}

/** What a suite gives the shared fuzz runner. */
export interface PropertySource<C> {
  arbitrary: fc.Arbitrary<C>;
  /** runs one generated case against the peer; what broke, or undefined */
  check(c: C, n: number): Promise<Broken | undefined>;
  /** the shrunk case as a report shows it */
  describe(c: C): { kind: string; request: Record<string, unknown>; changes: string[] };
  /** writes the failing request with the command that sends it again */
  reproduce(
    kind: string,
    request: Record<string, unknown>,
    seed: number,
  ): Promise<{ file: string; command: string }[]>;
  spec(name: FuzzProperty): string[];
}

/**
 * The shared runner of every fuzzed suite: fast-check generates, runs and shrinks; one
 * ConformCase per property, so JUnit lists each; the first runs the traffic, the others
 * report from the same run.
 */
export function propertyCases<C extends object>(
  source: PropertySource<C>,
  settings: FuzzSettings,
): { cases: ConformCase[]; summary: () => FuzzSummary | undefined } {
  const broken = new WeakMap<C, Broken>();
  let casesRun = 0;
  const property = fc.asyncProperty(source.arbitrary, async (c) => {
    const n = ++casesRun;
    settings.onCase?.(n);
    const why = await source.check(c, n);
    if (why) broken.set(c, why);
    return why === undefined;
  });

  let run: Promise<FuzzSummary> | undefined;
  let summary: FuzzSummary | undefined;
  const execute = async (): Promise<FuzzSummary> => {
    const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
    const details = await fc.check<[C]>(property, {
      numRuns: settings.runs,
      seed,
      ...(settings.path === undefined ? {} : { path: settings.path }),
      endOnFailure: false,
      // --fuzz-time: no new case after the limit; what ran so far is the result
      ...(settings.timeLimitMs === undefined
        ? {}
        : { plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs) as fc.Plugin<[C]>] }),
    });
    const result: FuzzSummary = { runs: details.numRuns, seed };
    if (details.failed && details.counterexample) {
      const c = details.counterexample[0];
      const why = broken.get(c) ?? {
        property: 'survives: no 5xx, no reset, no hang' as const,
        reasons: [
          details.errorInstance instanceof Error ? details.errorInstance.message : 'failed',
        ],
      };
      const shown = source.describe(c);
      result.failure = {
        ...why,
        ...shown,
        seed,
        path: details.counterexamplePath ?? '',
        shrinks: details.numShrinks,
        runs: details.numRuns,
        written: await source.reproduce(shown.kind, shown.request, seed),
      };
    }
    summary = result;
    return result;
  };

  const cases: ConformCase[] = FUZZ_PROPERTIES.map((name) => ({
    name: `fuzz: ${name}`,
    spec: source.spec(name),
    async run(ctx) {
      run ??= execute();
      const result = await run;
      const replayed =
        settings.path === undefined || result.failure
          ? ''
          : `; the case at --fuzz-path ${settings.path} and those after it passed`;
      await ctx.check(`${result.runs} generated payloads (seed ${result.seed}${replayed})`, () => {
        const failure = result.failure;
        if (!failure || failure.property !== name) return [];
        return [
          ...failure.reasons,
          `${failure.kind}, shrunk ${failure.shrinks} times, after ${plural(failure.runs, 'case')}; the sample with ${failure.changes.length === 0 ? 'no change (the plain sample fails)' : failure.changes.join(', ')}`,
          `request: ${JSON.stringify(failure.request)}`,
          `replay exactly: --fuzz ${failure.runs} --seed ${failure.seed} --fuzz-path ${failure.path}`,
          ...failure.written.map((w) => `reproduce: ${w.command}`),
        ];
      });
    },
  }));
  return { cases, summary: () => summary };
}

/** Where `after` differs from `before`, as `path = value` (removed fields: `path absent`). */
export function changesFrom(before: unknown, after: unknown, path = ''): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in after)) out.push(`${at} absent`);
      else if (!(key in before)) out.push(`${at} = ${JSON.stringify(after[key])}`);
      else out.push(...changesFrom(before[key], after[key], at));
    }
    return out;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const text = JSON.stringify(after);
  if (text.length <= 60) return [`${path} = ${text}`];
  // its start and its end: what breaks a receiver is often the last character (an emoji)
  const chars = [...text];
  return [
    `${path} = ${chars.slice(0, 40).join('')}…${chars.slice(-16).join('')} (${[...String(after)].length} characters)`,
  ];
}

/** The minimal request as a file, with the command that sends it again. */
async function writeReproduction(
  target: FuzzTarget,
  settings: FuzzSettings,
  kind: string,
  request: Record<string, unknown>,
  seed: number,
  suffix = '',
): Promise<{ file: string; command: string }[]> {
  const dir = resolve(settings.cwd, settings.failuresDir ?? join('.svc', 'failures'));
  await mkdir(dir, { recursive: true });
  const stem = `${target.suite}-${kind.replace(/^hook\.|^channel\./, '').replace(/\./g, '-')}-seed${seed}${suffix}`;
  const requestFile = join(dir, `${stem}.request.json`);
  await writeFile(requestFile, `${JSON.stringify(request, null, 2)}\n`);
  if (target.suite === 'hooks') {
    return [
      { file: requestFile, command: `svc-cli hook-fire --from ${requestFile} --url ${target.url}` },
    ];
  }
  const channelUrl = `${target.url.replace(/\/+$/, '')}/${encodeURIComponent(target.channel ?? 'conform')}`;
  const written = [
    {
      file: requestFile,
      command: `curl -X POST ${channelUrl} -H 'content-type: application/json' --data @${requestFile}`,
    },
  ];
  // the same message through the simulator as a conversation fixture (spec 2.2 fields the
  // platform sets itself, such as sender, come from the simulator there)
  const message = { ...(request.message as Record<string, unknown>) };
  delete message.id;
  const recipient = request.recipient as { id?: unknown } | undefined;
  const to =
    typeof recipient?.id === 'string' && recipient.id !== '' ? recipient.id : 'fuzz-customer';
  const content =
    message.type === 'text' && typeof message.text === 'string'
      ? { text: message.text }
      : message.type === 'typein' || message.type === 'typeout'
        ? { typing: message.type === 'typein' ? 'start' : 'stop' }
        : { media: message };
  const fixtureFile = join(dir, `${stem}.conversation.json`);
  await writeFile(
    fixtureFile,
    `${JSON.stringify(
      {
        version: 1,
        name: `fuzz failure ${kind} (seed ${seed})`,
        description:
          'Written by svc-cli conform integrator --fuzz: the message the integrator failed on.',
        tags: ['fuzz'],
        steps: [
          { customer: { text: 'hello', sender: { id: to } } },
          { agent: { ...content, to }, delivery: { result: 'delivered' } },
        ],
      },
      null,
      2,
    )}\n`,
  );
  written.push({
    file: fixtureFile,
    command: `svc-cli replay ${fixtureFile} --integrator-url ${target.url}`,
  });
  return written;
}
