import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * `replay --bot-url` against a bot configured for another channel than the fixture's: a
 * bot-message expectation fails, and the failure says what went wrong between the bot and
 * the platform, which the closest payload (a chat-opened) does not.
 */
afterEach(closePeers);

const fixture = 'fixtures/conversations/bot-text.json';
const configure =
  'this conversation\'s bot has provider id "conversation-provider" (setup.bot.providerId) and the token setup.bot.token gives (default "conversation-token"): configure your bot with both, or give replay yours with --bot-provider-id and --bot-token (spec 4.3)';

/**
 * A bot that answers 200 to every event and, to a CLIENT_MESSAGE, posts a BOT_MESSAGE with
 * `text` to the bot service on `port` as provider `provider` (the fixture's token).
 */
const answeringBot = (
  port: number,
  provider: string,
  text: string,
  message: Record<string, unknown> = { type: 'TEXT', text, timestamp: 1700000000 },
  token = 'conversation-token',
) =>
  startPeer((req, res, body) => {
    // a bot that checks its token: events go to <bot url>/<token> (spec 4.3)
    if (req.url !== `/${token}`) return json(res, 404, {});
    json(res, 200, {});
    const event = JSON.parse(body) as { event?: string; chat_id?: string; client_id?: string };
    if (event.event !== 'CLIENT_MESSAGE') return;
    void fetch(`http://127.0.0.1:${port}/webhooks/${provider}/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'BOT_MESSAGE',
        id: 'answer-1',
        chat_id: event.chat_id,
        client_id: event.client_id,
        message,
      }),
    }).catch(() => undefined);
  });

describe('replay --bot-url: a bot set up with another token or provider id', () => {
  it('a bot that checks another token: its 404s are named, with the route question', async () => {
    // a bare 404 with no body, as http.server's send_response(404) gives
    const bot = await startPeer((req, res) => {
      res.writeHead(req.url === '/bot/dev-bot-token' ? 200 : 404);
      res.end();
    });
    const port = await freePort();
    const run = await runCli([
      ...['--time-scale', '0.25', 'replay', fixture],
      ...['--bot-url', `${bot}/bot`, '--platform-port', String(port)],
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "        your bot did not take CLIENT_MESSAGE: not delivered after 2 attempts: HTTP 404: the platform posts each event to the bot provider URL plus /<token> (here /bot/<token>): is that your bot's route, and does it expect the token the platform was given?",
    );
    expect(run.stdout).toContain(`        ${configure}`);
    // it failed on its token, not on bot-sim's texts: the note on those would mislead
    expect(run.stderr).not.toContain("note: the conversations svc-cli ships expect bot-sim's");
  });

  it("a bot that posts under another provider id: the bot service's refusal is named", async () => {
    const port = await freePort();
    const bot = await answeringBot(port, 'dev-provider', 'You said: hello bot');
    // at 0.25 the bot's post has the bot-message expectation's 15 s (3.75 wall s) to come and
    // be refused; at 0.05 (750 ms) a check run beside the suite's other files missed it
    const run = await runCli([
      ...['--time-scale', '0.25', 'replay', fixture],
      ...['--bot-url', bot, '--platform-port', String(port)],
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '        your bot posted a request to /webhooks/dev-provider/<token>, refused with HTTP 404 not_found: no provider "dev-provider" here; this bot service serves provider "conversation-provider" (spec 4.3)',
    );
    expect(run.stdout).toContain(`        ${configure}`);
    expect(run.stderr).not.toContain("note: the conversations svc-cli ships expect bot-sim's");
  });

  it('--bot-token and --bot-provider-id give replay the ones the bot was set up with', async () => {
    const port = await freePort();
    const text = 'You said: hello bot';
    const bot = await answeringBot(port, 'dev-provider', text, undefined, 'dev-bot-token');
    const run = await runCli([
      ...['--time-scale', '0.25', 'replay', fixture],
      ...['--bot-url', bot, '--platform-port', String(port)],
      ...['--bot-token', 'dev-bot-token', '--bot-provider-id', 'dev-provider'],
    ]);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    expect(run.code).toBe(0);
    // without a bot of the user's, the flags would do nothing: refused
    const alone = await runCli(['replay', fixture, '--bot-token', 'dev-bot-token']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      '--bot-token is the one your bot was given, and needs --bot-url',
    );
  });

  it('a payload the bot service refused (400) is named, with no question of ids', async () => {
    const port = await freePort();
    const bot = await answeringBot(port, 'conversation-provider', 'You said: hello bot', {
      type: 'TEXT',
      text: 'You said: hello bot',
    });
    const run = await runCli([
      ...['--time-scale', '0.25', 'replay', fixture],
      ...['--bot-url', bot, '--platform-port', String(port)],
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '        your bot posted BOT_MESSAGE to /webhooks/conversation-provider/<token>, refused with HTTP 400 invalid_request: message.timestamp: required (spec 2.5)',
    );
    expect(run.stdout).not.toContain('configure your bot with both');
  });

  it('a bot set up as the fixture says: no such notes', async () => {
    const port = await freePort();
    const bot = await answeringBot(port, 'conversation-provider', 'You said: hello');
    // at 0.25: the bot's 3 s per attempt is 750 wall ms; at 0.05 (150 ms) a machine busy
    // with other work let an attempt time out, and the set-up note rightly came
    const run = await runCli([
      ...['--time-scale', '0.25', 'replay', fixture],
      ...['--bot-url', bot, '--platform-port', String(port)],
    ]);
    // the text differs from the fixture's: a failure, but not one of set-up
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('expect integrator text "You said: hello bot"');
    expect(run.stdout).not.toContain('configure your bot with both');
    // a conversation svc-cli ships: written for bot-sim's script, which the note says
    expect(run.stderr).toContain(
      'note: the conversations svc-cli ships expect bot-sim\'s default answers (the echo "You said: ...", BUTTONS for menu, INVITE_AGENT for agent or operator)',
    );
    // the shipped conversation run from a folder of one's own (--grep): the note still comes,
    // though the result names it fixtures/..., a path that folder does not have
    const elsewhere = await runCli(
      [
        ...['--time-scale', '0.25', 'replay', '--grep', 'bot-text.json'],
        ...['--bot-url', bot, '--platform-port', String(port)],
      ],
      { cwd: mkdtempSync(join(tmpdir(), 'svc-elsewhere-')) },
    );
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toContain('(fixtures/conversations/bot-text.json');
    expect(elsewhere.stderr).toContain("note: the conversations svc-cli ships expect bot-sim's");
    // the same conversation from a folder of one's own: no such note
    const own = join(mkdtempSync(join(tmpdir(), 'svc-own-bot-')), 'bot-text.json');
    copyFileSync(fixture, own);
    const mine = await runCli([
      ...['--time-scale', '0.05', 'replay', own],
      ...['--bot-url', bot, '--platform-port', String(port)],
    ]);
    expect(mine.code).toBe(1);
    expect(mine.stderr).not.toContain('svc-cli ships');
  });
});

describe('replay --bot-url --platform-port: one port, a platform per conversation', () => {
  it("a conversation's first customer message reaches the next platform on the port", async () => {
    // a bot that answers nothing but 404: the hand-over conversation ends right after the
    // customer wrote, so its socket to the platform was still kept alive when the next began
    const bot = await startPeer((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const port = await freePort();
    const run = await runCli([
      ...['--time-scale', '0.2', 'replay'],
      'fixtures/conversations/bot-handover-online.json',
      'fixtures/conversations/bot-markdown-fallback.json',
      ...['--bot-url', bot, '--platform-port', String(port)],
    ]);
    expect(run.stdout).toContain('✓ bot invites an agent, one is online');
    expect(run.stdout).toContain('    ✓ 1. customer says "can I track my parcel?"');
    expect(run.stdout).not.toContain('the channel did not answer');
  });
});

describe('replay --hook-url: a receiver that replies otherwise than hook-target', () => {
  it('fails the shipped hook lifecycle on its own contact line, and the note says why', async () => {
    // a receiver that shows the CRM's contact card: its phone too, as a real CRM's is
    const receiver = await startPeer((_req, res, body) => {
      const event = JSON.parse(body) as { event_name?: string };
      json(
        res,
        200,
        event.event_name === 'chat_accepted'
          ? {
              result: 'ok',
              crm_link: 'https://crm.example.com/c/1',
              contact_info: { name: 'Ann', email: 'ann@example.com', phone: '+49301234567' },
            }
          : { result: 'ok' },
      );
    });
    const run = await runCli([
      ...['--time-scale', '0.1', 'replay', 'fixtures/conversations/hook-lifecycle.json'],
      ...['--hook-url', `${receiver}/hooks`],
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('"Ann, +49301234567, ann@example.com"');
    expect(run.stderr).toContain(
      "note: the conversations svc-cli ships expect hook-target's default replies",
    );
  });

  it('a receiver answering 404 on another path: the step asks about the route', async () => {
    // a receiver serving /hooks, given as /hook: a bare 404, as http.server's send_response(404)
    const receiver = await startPeer((req, res) => {
      if (req.url !== '/hooks') {
        res.writeHead(404);
        res.end();
        return;
      }
      json(res, 200, { result: 'ok', crm_link: 'https://crm.example.com/c/1' });
    });
    const run = await runCli([
      ...['--time-scale', '0.1', 'replay', 'fixtures/conversations/hook-lifecycle.json'],
      ...['--hook-url', `${receiver}/hook`],
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('          it answered 404\n');
    expect(run.stdout).toContain(
      "        your receiver answered 404: the platform posts to the hook URL as set, path and all (here /hook): is that your receiver's route? (spec 4.4)",
    );
    // the replies of hook-target are beside the point here: the path is
    expect(run.stderr).not.toContain("expect hook-target's default replies");
  });
});
