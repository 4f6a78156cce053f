import { Help, type Command } from 'commander';
import { conformOptions, suitesReading } from './conform-options.js';
import { defineCommand } from './spec.js';

const SUITES = ['integrator', 'hooks', 'platform', 'bot'] as const;
type Suite = (typeof SUITES)[number];

/** What each suite checks, for `--help` (spec sections as in the cases). */
const SUITE_HELP: Record<Suite, string> = {
  integrator: `we play the platform: every agent message kind (text, typein/typeout, each
              media type of spec 2.4) with Content-Length and chunked bodies, a redelivery of
              one message.id; replies must be 200 {"result":"ok"} or {"error":{code,message}}
              within 3 s (spec 2.2, 4.2, 8).`,
  hooks: `we play the platform: every hook event, offline_message and offline_messages;
              replies checked per event (spec 6.2) within 10 s (an assumption: spec 8 is silent).`,
  platform: `we play the integrator: 404 for an unknown public id and a wrong random string,
              status 0/1, text over 1000 characters cut, empty sender.id not delivered, media.
              With the svc control API (/_sim/) also the redelivery schedule 0, 3, 6 s seen by
              an embedded listen that fails twice; run both sides with the same --time-scale;
              and the offline form sent as the page would with agents online: refused (spec 3);
              and a page on its widget channel, called back before the agent accepts: each
              callback reported with its push's stream id (spec 4.5, 6.4: callback-order).
              --hook-listen-port serves a hook receiver the platform's hooks go to;
              --bot-listen-port a bot that hands each chat over (INVITE_AGENT, spec 3),
              with the --token and --provider-id set on the platform's bot channel
              (default svc-conform-bot, svc-conform), posting to --bot-api-url (default
              the channel URL's base, where an svc simulator serves its bot service).`,
  bot: `we play the platform: an embedded simulator on 127.0.0.1 whose bot service URL
              is printed first (point the bot at it; fix it with --platform-listen-port).
              CLIENT_MESSAGE, AGENT_JOINED, AGENT_UNAVAILABLE to <url>/<token> answered 200
              within 3 s (spec 4.3, 8); the bot's BOT_MESSAGE or INVITE_AGENT reaches the bot
              service within --answer-within and is valid (spec 2.5: at most 3 buttons, text
              fallbacks, timestamps; the chat's chat_id and client_id); a malformed event gets
              a 4xx (a warning only: the spec does not demand rejection). --bot-events docs
              adds the public Bot API's CHAT_CLOSED (a refusal is a warning) and checks any
              CLIENT_INFO the bot sends (docs/FIDELITY.md).`,
};

const INVARIANTS_HELP = `Invariants (platform): after the cases, the conversations the run saw (the customer's
messages, the agent's deliveries, with --hook-listen-port the platform's hooks, with
--bot-listen-port what it sent the bot: AGENT_JOINED only after a hand-over; against an
svc simulator the page's callbacks in the order of the pushes they reflect) are
checked against the cross-interface rules of docs/trace.md, e.g. chat_finished's transcript
holds each message once. A broken one fails a "cross-interface invariants" case naming the
rule, its contract section and the two exchanges; --no-invariant <name> switches one off.
--report <file> draws those chats as replay --report does (--record <file>: their NDJSON).`;

const PEER_INVARIANTS_HELP = `Invariants (bot): svc-cli plays the platform, so the rules are judged from the bot's
side on the embedded platform's journal: bot-after-close (the bot posts nothing about a
chat once it answered CHAT_CLOSED, with --bot-events docs) and handover-budget (its
INVITE_AGENT comes within the bot budget, 6 s, of the CLIENT_MESSAGE). The others would judge svc-cli and are skipped by
name (agent-joined: conform bot sends AGENT_JOINED as a scripted step). hooks and integrator
check none: every rule judges what the platform sends (docs/trace.md).`;

const FUZZ_HELP = `Fuzz (hooks, integrator, bot): --fuzz N replaces the fixed cases with N payloads generated from
the contract (every hook event or agent message kind, at the edges the spec allows: empty,
1000-code-point, astral and combining text, null or absent optional fields, both id forms,
offline_messages, unknown fields). Each is delivered, then delivered again as a redelivery;
the peer must survive (no 5xx, reset, hang), answer within the budget, answer validly, and
answer the redelivery the same way. A failure is shrunk to the fewest changes, printed with
--seed and --fuzz-path to replay it exactly, and written to --replay-failures (default
.svc/failures) with the command that sends it again.`;

const CHECKS_HELP = `Payload checks (docs/FIDELITY.md): what the peer under test writes is held to the spec's
types (a numeric id or a numeric-string size is an error); null optional fields and the
drift the platform's public samples show are warnings, never failures.`;

/** Examples, each with the suite it shows (a line that starts a peer goes with its suite). */
const EXAMPLES: ReadonlyArray<readonly [Suite, string]> = [
  ['integrator', 'svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages'],
  [
    'hooks',
    'svc-cli conform hooks --url http://127.0.0.1:9200/hooks --reporter junit --out hooks.xml --report hooks.html',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 platform --port 8800 --channel-id shop --random-string dev-only-secret-1234 --no-console &',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 conform platform --channel-url http://127.0.0.1:8800/dev-only-secret-1234/shop',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 platform --port 8801 --channel-id shop --random-string dev-only-secret-1234 --hook-url http://127.0.0.1:8900/hooks --no-console &',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 conform platform --channel-url http://127.0.0.1:8801/dev-only-secret-1234/shop --hook-listen-port 8900 --report conform.html',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 platform --port 8802 --channel-id shop --random-string dev-only-secret-1234 --bot-provider-url http://127.0.0.1:9300 --bot-token svc-conform-bot --provider-id svc-conform --no-console &',
  ],
  [
    'platform',
    'svc-cli --time-scale 0.2 conform platform --channel-url http://127.0.0.1:8802/dev-only-secret-1234/shop --bot-listen-port 9300',
  ],
  [
    'platform',
    'svc-cli conform platform --channel-url "$CHANNEL_URL" --bot-listen-port 9300 --token "$BOT_TOKEN" --provider-id acme --bot-api-url https://bots.staging.example.com   # a platform whose bot channel has that token and id, and a bot provider URL reaching port 9300',
  ],
  [
    'bot',
    'svc-cli bot-sim --port 9100 --token t0k --provider-id acme --platform-url http://127.0.0.1:8800 &',
  ],
  [
    'bot',
    'svc-cli conform bot --url http://127.0.0.1:9100 --token t0k --provider-id acme --platform-listen-port 8800 --wait 10s   # bot-sim may still be starting',
  ],
  [
    'bot',
    'svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k --text "I want to book a table" --text menu',
  ],
  [
    'bot',
    'svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k --script intents.txt   # one text per line',
  ],
  [
    'bot',
    'svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k --bot-events docs --text "mail me: jane@example.com"',
  ],
  [
    'integrator',
    'svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages --profile real.profile.json   # as the recorded platform sends',
  ],
  ['hooks', 'svc-cli conform hooks --url http://127.0.0.1:9200/hooks --fuzz 500 --seed 7'],
  [
    'integrator',
    'svc-cli conform integrator --url http://127.0.0.1:9000/agent-messages --fuzz 300',
  ],
  [
    'bot',
    'svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k --fuzz 100 --fuzz-time 60s',
  ],
];

/** The suite a `conform <suite> --help` names, if it names one. */
function suiteAsked(command: Command): Suite | undefined {
  const first = command.args[0];
  return SUITES.find((suite) => suite === first);
}

/**
 * The text after the flags: every suite's, or one suite's (its checks, fuzz unless it is
 * platform, its examples) with the way back to all of them.
 */
export function conformHelpAfter(suite?: Suite): string {
  const shown = suite === undefined ? SUITES : [suite];
  const suites = shown.map((s) => `  ${s.padEnd(10)}  ${SUITE_HELP[s]}`).join('\n');
  const parts = [`${suite === undefined ? 'Suites' : 'Suite'}:\n${suites}`];
  if (suite !== 'platform') parts.push(FUZZ_HELP);
  if (suite === undefined || suite === 'platform') parts.push(INVARIANTS_HELP);
  if (suite === undefined || suite === 'bot') parts.push(PEER_INVARIANTS_HELP);
  parts.push(CHECKS_HELP);
  const examples = EXAMPLES.filter(([s]) => suite === undefined || s === suite).map(
    ([, line]) => `  $ ${line}`,
  );
  parts.push(`Examples:\n${examples.join('\n')}`);
  if (suite !== undefined) parts.push('Every suite and its flags: svc-cli conform --help');
  return `\n${parts.join('\n\n')}`;
}

/**
 * `conform platform --help` lists the flags that suite reads, not every suite's; a mistyped
 * flag still gets a suggestion from every suite's (it may be meant for another one).
 */
function showSuiteFlags(cmd: Command): void {
  let suggesting = false;
  cmd.configureHelp({
    visibleOptions(this: Help, command: Command) {
      const all = Help.prototype.visibleOptions.call(this, command);
      const suite = suiteAsked(command);
      if (suite === undefined) return all;
      if (suggesting) return all; // a mistyped flag may be meant for another suite
      return all.filter((option) => {
        const suites = suitesReading(option.long, option.helpGroupHeading);
        return !suites || suites.includes(suite);
      });
    },
  });
  // commander suggests a mistyped flag from the visible ones: the suite's own first
  // (`conform hooks --reportr` is --reporter, not platform's --report), else every suite's
  const withSuggestions = cmd as unknown as { unknownOption(flag: string): void };
  const unknownOption = withSuggestions.unknownOption.bind(cmd);
  withSuggestions.unknownOption = (flag) => {
    const output = cmd.configureOutput();
    let said: string | undefined;
    cmd.configureOutput({ outputError: (text) => (said = text) });
    try {
      unknownOption(flag);
    } catch (error) {
      if (said !== undefined && /Did you mean/.test(said)) {
        output.outputError?.(said, (text) => output.writeErr?.(text));
        throw error;
      }
    } finally {
      cmd.configureOutput(output);
    }
    suggesting = true;
    try {
      unknownOption(flag);
    } finally {
      suggesting = false;
    }
  };
}

/** `conform <suite>`: the contract suites against someone else's implementation. */
export const conformCommand = defineCommand({
  name: 'conform',
  description:
    "run the contract suite against someone else's implementation: an integrator endpoint, a hook receiver, a bot provider or a platform",
  arguments: [
    { name: 'suite', description: 'integrator | hooks | platform | bot', choices: SUITES },
  ],
  options: conformOptions,
  helpAfter: ({ command }) => conformHelpAfter(suiteAsked(command)),
  configure: showSuiteFlags,
  run: {
    path: 'conform-run',
    sources: () => import('./conform-run.js'),
    call: (m, ctx, { args, flags }) => m.runConform(ctx, args.suite, flags),
  },
});
