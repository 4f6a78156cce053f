import { createVirtualClock } from '../../src/clock.js';
import { postJson } from '../../src/http/client.js';
import { createJournal } from '../../src/journal/journal.js';
import {
  closeChat,
  createPlatform,
  sendAgentMessage,
  type Platform,
} from '../../src/platform/index.js';
import { assignChat } from '../../src/platform/hooks/index.js';
import { createHookTarget, type HookTarget } from '../../src/roles/hooks/index.js';
import { parseConsoleLine } from '../../src/cli/console/agent-console.js';
import { runHookConsoleAction } from '../../src/cli/console/hook-console.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';

let open: { platform: Platform; listener: Listener; target: HookTarget } | undefined;
export async function closeHooksSession(): Promise<void> {
  await open?.platform.close();
  await open?.listener.close(10);
  await open?.target.close(10);
  open = undefined;
}

/** The CRM's reply to chat_accepted in the recorded session (spec 6.2). */
export const RECORDED_ACCEPTED_REPLY = {
  result: 'ok',
  custom_data: [{ title: 'Order', content: '#4711' }],
  crm_link: 'https://crm.example.com/contacts/42',
};

/**
 * A recording platform with hooks to an embedded hook-target: a customer has written and the
 * agent answered (chat_accepted, with a CRM reply). `hooks(n)` waits for the n-th hook.
 */
async function startHooksSession(file: string) {
  // protocol time moves only when every exchange in flight is answered: on a busy machine a
  // scaled clock ran the 10 s hook timeout out (100 ms at 1/100) and recorded another session
  const clock = createVirtualClock();
  const listener = await createListener({ clock });
  const target = await createHookTarget({
    clock,
    replies: { chat_accepted: RECORDED_ACCEPTED_REPLY, chat_finished: { result: 'FAILURE' } },
  });
  const platform = createPlatform({
    clock,
    journal: createJournal({ file }),
    channels: [{ id: 'shop', integratorUrl: listener.url }],
    hooks: { url: `${target.url}/hooks` },
  });
  open = { platform, listener, target };
  let hooksDone = 0;
  const waiters: Array<() => void> = [];
  platform.core.on((event) => {
    if (event.type === 'delivery-done' && event.target === 'hook') {
      hooksDone++;
      waiters.splice(0).forEach((wake) => wake());
    }
  });
  const hooks = async (count: number) => {
    while (hooksDone < count) {
      // the call's statuses are timers: move to them once nothing is in flight
      if (await clock.runUntil(() => hooksDone >= count, 120_000)) return;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  await platform.listen({ port: 0 });
  const url = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
  await postJson({
    url,
    body: JSON.stringify({
      sender: { id: 'c-7', name: 'Jane', email: 'jane@example.com' },
      message: { type: 'text', text: 'Is my order on its way?' },
    }),
    timeoutMs: 5000,
    clock,
  });
  await sendAgentMessage(platform.core, {
    customerId: 'c-7',
    message: { type: 'text', text: 'Yes, it ships today.' },
  });
  await hooks(1);
  return { platform, hooks };
}

/**
 * Records a session with hooks: a customer writes, the agent answers (chat_accepted, with a
 * CRM reply), the chat is linked to the CRM through the control API (chat_assigned) and
 * closed in the agent application (chat_finished, answered FAILURE).
 */
export async function recordHooksSession(
  file: string,
  /** control: the control API (recorded); console: the agent console's /assign (not recorded) */
  assignVia: 'control' | 'console' = 'control',
): Promise<void> {
  const { platform, hooks } = await startHooksSession(file);
  if (assignVia === 'console') assignChat(platform.core, { chatId: 1 });
  else
    await fetch(`${platform.core.baseUrl}/_sim/chats/1/assign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
  await hooks(2);
  closeChat(platform.core, { customerId: 'c-7' });
  await hooks(3);
  await platform.close();
}

/**
 * Records a session in which the agent types a `/call` line in the console (call_event, not
 * a control request), waits for the call's last status and closes the chat. On the virtual
 * clock the call's 40 s pass at once.
 */
export async function recordConsoleCallSession(file: string, line: string): Promise<void> {
  const { platform, hooks } = await startHooksSession(file);
  const action = parseConsoleLine(line);
  if (action.kind !== 'call') throw new Error(`not a /call line: ${line}`);
  runHookConsoleAction(platform.core, action, { note: () => undefined });
  // start, agent_connected, then error, or client_connected and end
  await hooks(action.errorReason === undefined ? 5 : 4);
  closeChat(platform.core, { customerId: 'c-7' });
  await hooks(action.errorReason === undefined ? 6 : 5);
  await platform.close();
}
