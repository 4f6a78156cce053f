import { describe, expect, it } from 'vitest';
import { createDeliveryProgress, withSpinner } from '../../../src/cli/render/progress.js';
import { createTestContext } from '../../helpers/cli-context.js';

const rejected = (attempt: number, deliveryId = 'd-1', at = 0) => ({
  type: 'delivery-attempt',
  deliveryId,
  target: 'integrator',
  attempt,
  attempts: 3,
  offsetMs: (attempt - 1) * 3000,
  durationMs: 12,
  outcome: 'rejected',
  protocolMs: at + (attempt - 1) * 3000 + 12,
});

describe('progress (spinners only on a TTY, never with --json)', () => {
  it('prints nothing on a non-TTY', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const progress = await createDeliveryProgress(t.ctx, {
      json: false,
      intervalMs: () => 3000,
      now: () => 12,
    });
    progress.onEvent(rejected(1));
    progress.around(() => t.ctx.stdout.write('line\n'));
    progress.onEvent({ type: 'delivery-done', deliveryId: 'd-1' });
    progress.stop();
    expect(await withSpinner(t.ctx, { json: false }, 'sending', Promise.resolve(42))).toBe(42);
    expect(t.stderr()).toBe('');
    expect(t.stdout()).toBe('line\n');
  });

  it('prints nothing with --json, even on a TTY', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    (t.ctx.stderr as { isTTY?: boolean }).isTTY = true;
    const progress = await createDeliveryProgress(t.ctx, {
      json: true,
      intervalMs: () => 3000,
      now: () => 0,
    });
    progress.onEvent(rejected(1));
    expect(await withSpinner(t.ctx, { json: true }, 'sending', Promise.resolve(1))).toBe(1);
    expect(t.stderr()).toBe('');
  });

  it('on a TTY tells the next attempt and when it starts', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    // a terminal's cursor methods, as ora uses them
    Object.assign(t.ctx.stderr, {
      isTTY: true,
      columns: 80,
      cursorTo: () => true,
      moveCursor: () => true,
      clearLine: () => true,
    });
    const progress = await createDeliveryProgress(t.ctx, {
      json: false,
      intervalMs: () => 3000,
      now: () => 12,
    });
    progress.onEvent(rejected(1));
    progress.stop();
    expect(t.stderr()).toContain('redelivery attempt 2/3 in 3.0 s');
  });

  it("names a bot's or a hook's next attempt as theirs, not as a redelivery", async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const shown: (string | undefined)[] = [];
    const progress = await createDeliveryProgress(t.ctx, {
      json: false,
      intervalMs: () => 3000,
      now: () => 12,
      status: (text) => shown.push(text),
    });
    progress.onEvent({ ...rejected(1, 'b-1'), target: 'bot', attempts: 2 });
    expect(shown.at(-1)).toBe('bot attempt 2/2 in 3.0 s');
    progress.onEvent({ type: 'delivery-done', deliveryId: 'b-1' });
    progress.onEvent({ ...rejected(1, 'h-1'), target: 'hook' });
    expect(shown.at(-1)).toBe('hook attempt 2/3 in 3.0 s');
    progress.stop();
  });

  it('says an attempt that is due is out, waiting for its reply, not "in 0.0 s"', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const shown: (string | undefined)[] = [];
    const progress = await createDeliveryProgress(t.ctx, {
      json: false,
      intervalMs: () => 3000,
      now: () => 3006,
      status: (text) => shown.push(text),
    });
    // a silent bot: the first attempt timed out after 3 s, the second goes at once
    progress.onEvent({
      ...rejected(1, 'b-1'),
      target: 'bot',
      attempts: 2,
      durationMs: 3006,
      outcome: 'timeout',
      protocolMs: 3006,
    });
    expect(shown.at(-1)).toBe('bot attempt 2/2 sent, waiting for its reply');
    // its verdict ends the wait
    progress.onEvent({ type: 'delivery-done', deliveryId: 'b-1' });
    expect(shown.at(-1)).toBeUndefined();
    progress.stop();
  });

  it('counts down to the soonest of several series and keeps the others until they end', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    let now = 12;
    const shown: (string | undefined)[] = [];
    const progress = await createDeliveryProgress(t.ctx, {
      json: false,
      intervalMs: () => 3000,
      now: () => now,
      status: (text) => shown.push(text),
    });
    progress.onEvent(rejected(1, 'd-1'));
    expect(shown.at(-1)).toBe('redelivery attempt 2/3 in 3.0 s');
    now = 1012;
    // a second message fails while the first one waits: the first is still the soonest
    progress.onEvent(rejected(1, 'd-2', 1000));
    expect(shown.at(-1)).toBe('redelivery attempt 2/3 in 2.0 s (+1 more waiting)');
    now = 3012;
    // the first one's second attempt is accepted: the second one's countdown stays
    progress.onEvent({ ...rejected(2, 'd-1'), outcome: 'accepted' });
    expect(shown.at(-1)).toBe('redelivery attempt 2/3 in 1.0 s');
    // a verdict for a series nobody waits on changes nothing
    progress.onEvent({ type: 'delivery-done', deliveryId: 'd-9' });
    expect(shown.at(-1)).toBe('redelivery attempt 2/3 in 1.0 s');
    progress.onEvent({ type: 'delivery-done', deliveryId: 'd-2' });
    expect(shown.at(-1)).toBeUndefined();
    progress.stop();
  });
});
