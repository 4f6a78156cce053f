/**
 * POST /_sim/calls/timing: the pace of the calls the simulator plays from then on (spec 2.6
 * shows the statuses, not their timing). conform platform's page case paces the visitor's call
 * to 100 ms so a run does not pay 40 s, and sets the pace it was answered as `before` back.
 */
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatform } from '../../../src/platform/index.js';

describe('POST /_sim/calls/timing', () => {
  it('paces the calls started after it, answers the pace before, and refuses a negative one', async () => {
    const clock = createVirtualClock();
    const platform = createPlatform({ clock, channels: [{ id: 'shop', randomString: 'r4nd0m' }] });
    const { core } = platform;
    const post = (path: string, body: unknown) =>
      core.request(path, { method: 'POST', body: JSON.stringify(body) });
    const statuses: Array<[string, number]> = [];
    core.on((event) => {
      if (event.type === 'call-status') statuses.push([event.status, event.protocolMs]);
    }, 'the test');

    const paced = await post('/_sim/calls/timing', { stepMs: 100, talkMs: 100 });
    expect(paced.status).toBe(200);
    expect(await paced.json()).toEqual({
      stepMs: 100,
      talkMs: 100,
      before: { stepMs: 5000, talkMs: 30_000 },
    });
    const start = clock.now();
    expect((await post('/_sim/calls', { phone: '+15550100' })).status).toBe(202);
    await clock.advance(300);
    expect(statuses.map(([status, at]) => [status, at - start])).toEqual([
      ['start', 0],
      ['agent_connected', 100],
      ['client_connected', 200],
      ['end', 300],
    ]);

    // set back: the next call takes its 40 s again
    const back = await post('/_sim/calls/timing', { stepMs: 5000, talkMs: 30_000 });
    expect(((await back.json()) as { before: unknown }).before).toEqual({
      stepMs: 100,
      talkMs: 100,
    });
    statuses.length = 0;
    await post('/_sim/calls', { phone: '+15550100' });
    await clock.advance(39_999);
    expect(statuses.map(([status]) => status)).toEqual([
      'start',
      'agent_connected',
      'client_connected',
    ]);
    await clock.advance(1);
    expect(statuses.at(-1)?.[0]).toBe('end');

    const bad = await post('/_sim/calls/timing', { stepMs: -1 });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('stepMs');
    await platform.close();
  });
});
