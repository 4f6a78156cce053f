/**
 * The request pipeline (src/http/pipeline.ts) and its journal step: steps run outermost
 * first around the handler, a synchronous chain stays synchronous (the ingest answers in the
 * turn its body arrived), and the journal step records once, after the rest, through
 * recordExchange.
 */
import { describe, expect, it } from 'vitest';
import { after, bodyStep, compose, type PipelineContext } from '../../src/http/pipeline.js';
import { createJournal, journalStep } from '../../src/journal/index.js';

interface Ctx extends PipelineContext {
  log: string[];
}

const ctxOf = (method = 'POST'): Ctx => ({ method, started: 0, wallStarted: 0, log: [] });

describe('compose', () => {
  it('runs the steps outermost first around the handler, and back out', async () => {
    const run = compose<Ctx>(
      [
        (ctx, next) => {
          ctx.log.push('a in');
          return after(next(ctx), () => ctx.log.push('a out'));
        },
        async (ctx, next) => {
          ctx.log.push('b in');
          await next(ctx);
          ctx.log.push('b out');
        },
      ],
      (ctx) => void ctx.log.push('handler'),
    );
    const ctx = ctxOf();
    await run(ctx);
    expect(ctx.log).toEqual(['a in', 'b in', 'handler', 'b out', 'a out']);
  });

  it('stays synchronous when every step and the handler are', () => {
    const run = compose<Ctx>(
      [(ctx, next) => after(next(ctx), () => ctx.log.push('after'))],
      (ctx) => void ctx.log.push('handler'),
    );
    const ctx = ctxOf();
    expect(run(ctx)).toBeUndefined();
    expect(ctx.log).toEqual(['handler', 'after']);
  });

  it('lets a step answer without the rest', async () => {
    const run = compose<Ctx>([(ctx) => void ctx.log.push('refused')], (ctx) => {
      ctx.log.push('handler');
    });
    const ctx = ctxOf();
    await run(ctx);
    expect(ctx.log).toEqual(['refused']);
  });
});

describe('bodyStep', () => {
  const body = {
    ok: true as const,
    raw: '{}',
    json: {},
    transfer: 'content-length' as const,
    bytes: 2,
  };

  it('goes on synchronously with a body the transport holds', () => {
    const run = compose<Ctx>([bodyStep<Ctx>({ limit: 10, read: () => body })], (ctx) => {
      ctx.log.push(ctx.body?.ok ? 'read' : 'none');
    });
    const ctx = ctxOf();
    expect(run(ctx)).toBeUndefined();
    expect(ctx.log).toEqual(['read']);
  });

  it('waits for a body that arrives later, and skips requests without one', async () => {
    let deliver: ((b: typeof body) => void) | undefined;
    const run = compose<Ctx>(
      [
        bodyStep<Ctx>({
          limit: 10,
          wants: (ctx) => ctx.method !== 'GET',
          read: (_ctx, limit, then) => {
            expect(limit).toBe(10);
            deliver = then;
            return undefined;
          },
        }),
      ],
      (ctx) => void ctx.log.push(ctx.body ? 'read' : 'no body'),
    );
    const get = ctxOf('GET');
    expect(run(get)).toBeUndefined();
    expect(get.log).toEqual(['no body']);
    const post = ctxOf();
    const done = run(post);
    expect(post.log).toEqual([]);
    deliver?.(body);
    await done;
    expect(post.log).toEqual(['read']);
  });
});

describe('bodyStep with a fail callback', () => {
  it('makes no promise and hands a failure after the body to fail', async () => {
    let deliver:
      | ((b: { ok: true; raw: string; json: unknown; transfer: 'none'; bytes: number }) => void)
      | undefined;
    const failures: unknown[] = [];
    const run = compose<Ctx>(
      [
        bodyStep<Ctx>({
          limit: 10,
          read: (_ctx, _limit, then) => {
            deliver = then;
            return undefined;
          },
        }),
      ],
      () => Promise.reject(new Error('route failed')),
    );
    const ctx: Ctx = { ...ctxOf(), fail: (error) => failures.push(error) };
    expect(run(ctx)).toBeUndefined();
    deliver?.({ ok: true, raw: '{}', json: {}, transfer: 'none', bytes: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures.map((e) => (e as Error).message)).toEqual(['route failed']);
  });
});

describe('journalStep', () => {
  it('records what the answering step left, once, after the rest, fields in order', () => {
    const journal = createJournal();
    const seqs: (number | undefined)[] = [];
    const run = compose<Ctx & { status?: number }>(
      [
        journalStep(
          () => journal,
          (ctx) =>
            ctx.status === undefined
              ? undefined
              : {
                  protocolMs: ctx.started,
                  iface: 'channel',
                  direction: 'in',
                  request: { method: ctx.method, url: '/x' },
                  response: { status: ctx.status },
                },
          (_ctx, seq) => seqs.push(seq),
        ),
      ],
      (ctx) => {
        ctx.status = 200;
      },
    );
    void run({ ...ctxOf(), log: [] });
    const [record] = journal.entries();
    expect(Object.keys(record ?? {})).toEqual([
      'type',
      'seq',
      'run',
      'at',
      'protocolMs',
      'iface',
      'direction',
      'request',
      'response',
    ]);
    expect(seqs).toEqual([1]);
    journal.close();
  });

  it('records nothing without a journal or without a record', () => {
    let asked = 0;
    const run = compose<Ctx>(
      [
        journalStep<Ctx>(
          () => undefined,
          () => {
            asked++;
            return undefined;
          },
        ),
      ],
      () => undefined,
    );
    void run(ctxOf());
    expect(asked).toBe(0);
  });
});
