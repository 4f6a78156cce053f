import type { Fault } from '../../src/faults/fault.js';
import { createVirtualClock } from '../../src/clock.js';
import { postJson } from '../../src/http/client.js';
import { createJournal } from '../../src/journal/journal.js';
import { createPlatform, sendAgentMessage, type Platform } from '../../src/platform/index.js';
import {
  createListener,
  type Listener,
  type ListenerOptions,
} from '../../src/roles/integrator/index.js';

let open: { platform: Platform; listener: Listener } | undefined;
export async function closeRecordedSession(): Promise<void> {
  await open?.platform.close();
  await open?.listener.close(10);
  open = undefined;
}

/**
 * Records a session: customer messages in, agent messages out (one redelivered, one error
 * reply); `listener` sets the integrator's other options (a channel it refuses, a slow plan).
 */
export async function recordSession(
  file: string,
  listenFile?: string,
  sequence: Fault[] = [
    { kind: 'status', status: 503 },
    { kind: 'none' },
    { kind: 'none' },
    { kind: 'error', code: 'blocked', message: 'user blocked' },
  ],
  listener: Partial<ListenerOptions> = {},
): Promise<void> {
  // a virtual clock: the 3 s attempt timeout never fires on a busy machine (a wall-clock
  // 300 ms budget turned a slow first 503 into a 'hang' under a loaded full run)
  const clock = createVirtualClock();
  const listenJournal = listenFile ? createJournal({ file: listenFile }) : undefined;
  const integrator = await createListener({
    clock,
    plan: { sequence },
    ...listener,
    ...(listenJournal ? { journal: listenJournal } : {}),
  });
  const platform = createPlatform({
    clock,
    journal: createJournal({ file }),
    channels: [{ id: 'shop', integratorUrl: integrator.url }],
  });
  open = { platform, listener: integrator };
  await platform.listen({ port: 0 });
  const url = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
  const send = (body: unknown) =>
    postJson({ url, body: JSON.stringify(body), timeoutMs: 5000, clock });
  const sender = { id: 'c-42', name: 'Jane' };
  await send({ sender, message: { type: 'text', text: 'Hi, where is my order?' } });
  await send({
    sender,
    message: { type: 'photo', file: 'https://x.test/r.jpg', file_name: 'r.jpg', file_size: 12 },
  });
  await send({ sender: { id: '' }, message: { type: 'text', text: 'lost' } });
  const agent = async (message: Parameters<typeof sendAgentMessage>[1]['message']) => {
    let done = false;
    const sending = sendAgentMessage(platform.core, { customerId: 'c-42', message }).finally(
      () => (done = true),
    );
    await clock.runUntil(() => done);
    await sending;
  };
  await agent({ type: 'text', text: 'Let me check.' });
  await agent({ type: 'typein' });
  await agent({ type: 'text', text: 'Shipped today.' });
  await platform.close();
  platform.core.journal.close();
  listenJournal?.flush();
}
