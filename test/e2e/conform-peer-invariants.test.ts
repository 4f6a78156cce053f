/**
 * `conform bot` on the command line judges the bot's side of the invariants: a bot that
 * answers about a chat after CHAT_CLOSED fails with exit 1, the rule, its section and both
 * exchanges; --no-invariant switches it off; the summary says which rules were checked and
 * that the others were skipped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

afterEach(() => closePeers());

/** Answers every event 200; to a CLIENT_MESSAGE (and, planted, a CHAT_CLOSED) posts a BOT_MESSAGE. */
async function startBot(port: number, afterClose: boolean): Promise<string> {
  let posted: Promise<unknown> = Promise.resolve();
  const answer = (event: Record<string, unknown>) =>
    fetch(`http://127.0.0.1:${port}/webhooks/svc-conform/t0k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'BOT_MESSAGE',
        id: `b-${Math.random().toString(36).slice(2)}`,
        chat_id: event.chat_id,
        client_id: event.client_id,
        message: { type: 'TEXT', text: 'Hi', timestamp: Math.floor(Date.now() / 1000) },
      }),
    }).catch(() => undefined);
  return startPeer((req, res, body) => {
    // a bot checks its token first (spec 5.2): conform sends one event with a wrong one
    if (req.url?.split('/').at(-1) !== 't0k') return json(res, 401, {});
    const event = JSON.parse(body) as Record<string, unknown>;
    // later events are answered once the planted post arrived: it is journaled before the end
    void posted.then(() => json(res, 200, {}));
    // a message with no chat_id (conform's malformed case) is answered 200 and not replied to:
    // a BOT_MESSAGE without chat_id goes to the bot's last chat (spec 6.1's sample omits it),
    // here the closed one, so a reply to it posted beside a CPU hog past the 250 ms tolerance
    // after CHAT_CLOSED was that rule broken by the fixed bot (1 busy npm test in 2)
    if (event.event === 'CLIENT_MESSAGE' && event.chat_id !== undefined) void answer(event);
    // the planted bug: a BOT_MESSAGE about the chat 400 ms after it answered CHAT_CLOSED
    if (afterClose && event.event === 'CHAT_CLOSED')
      posted = new Promise((resolve) => setTimeout(resolve, 400)).then(() => answer(event));
  });
}

const conformBot = (url: string, port: number, ...more: string[]) =>
  runCli([
    'conform',
    'bot',
    '--url',
    url,
    '--token',
    't0k',
    '--bot-events',
    'docs',
    '--platform-listen-port',
    String(port),
    ...more,
  ]);

describe('conform bot: the bot side of the invariants', () => {
  it('fails a bot that answers after CHAT_CLOSED (exit 1); passes it switched off, and the fixed bot', async () => {
    const port = await freePort();
    const broken = await startBot(port, true);
    const run = await conformBot(broken, port);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /bot-after-close \(spec 2\.5\): the bot posted #\d+ BOT_MESSAGE at [\d.]+ s about chat \d+, after it answered #\d+ CHAT_CLOSED at [\d.]+ s \[exchanges #\d+ and #\d+; --no-invariant bot-after-close switches it off\]/,
    );
    expect(run.stdout).toMatch(
      /invariants: 2 checked \(bot-after-close, handover-budget\) on 1 conversation \(\d+ exchanges\), 1 violation; 6 skipped: they judge what svc-cli sends \(docs\/trace\.md\)/,
    );
    const off = await conformBot(broken, port, '--no-invariant', 'bot-after-close');
    expect(off.code, off.stdout).toBe(0);

    await closePeers();
    const fixed = await conformBot(await startBot(port, false), port);
    expect(fixed.code, fixed.stdout).toBe(0);
  });
});
