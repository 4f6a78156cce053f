import { defineCommand } from './spec.js';
import { replayOptions } from './replay-options.js';

/** `replay [paths...]`: fixture conversations against the embedded world or real peers. */
export const replayCommand = defineCommand({
  name: 'replay',
  description:
    'replay fixture conversations against the embedded simulator and roles (or real peers)',
  arguments: [
    {
      name: 'paths',
      optional: true,
      variadic: true,
      description:
        'conversation files or folders (default: ./fixtures/conversations, else the ones shipped with svc-cli)',
    },
  ],
  options: replayOptions,
  helpAfter: `
Everything runs in one process on a virtual clock by default: a conversation with a 9 s
redelivery series takes milliseconds. Naming a real peer switches to real time (scale it
with --time-scale).

--platform-url <url> replays against a running \`svc-cli platform\`: the channel URL comes
from GET <url>/_sim/state, agent, agents and close steps go through its control API, event
expectations read GET <url>/_sim/events. That simulator talks to the integrator, bot and hook
URLs it was started with, so integrator, bot and hook expectations and the fixture's
setup.integrator / bot / hooks do not apply there: those expectations are skipped, with the
reason. Give both sides the same --time-scale (replay warns when they differ). A conversation with page steps is skipped
there.

Page steps ({"page": {"say": "..."}}, {"page": {"call": "+49 ..."}}) attach the page-script
double to the embedded simulator's widget channel (interface C): its callbacks are
expectations ({"expect": {"page": "svc_onCallEnd"}}), and the ones a push caused are
journaled, so the callback-order invariant (spec 6.4) runs at the end (docs/replay.md).

--concurrency <n> replays up to n conversations at once, each in its own embedded world on
its own virtual clock (default 4; 1 = one after another). Output is the same as one after
another: each conversation's block is printed when its turn in input order comes, and
--bail reports up to the first failing conversation. With a real peer (--integrator-url,
--bot-url, --hook-url, --platform-url) the default is 1: a real peer may not handle parallel
conversations on the same channel; pass --concurrency to run several anyway.

With --integrator-url, --bot-url or --hook-url the embedded platform numbers chats from a
random run id (chats <n>001, <n>002 ..., clients <n>501, <n>502 ...; printed under the
summary): a peer with a database sees new chats on every run, as the spec's ids unique within
the account promise. A fixture's literal chat ids (/_sim/chats/1/assign, "chatId": 1) move
with them. --run-id <n> repeats a run's ids. Each named peer is tried once before the first
conversation: one nothing listens at ends the run (exit 3). --wait <time> gives a peer started
in the background just before the time to listen (tried every 100 ms; exit 3 if one still
refuses connections then).

Examples:
  $ svc-cli replay                                       # every bundled conversation
  $ svc-cli replay fixtures/conversations/redelivery-exhausted.json
  $ svc-cli replay fixtures/conversations/widget-callback-order.json   # a page (interface C)
  $ svc-cli replay my-flows/ --integrator-url http://127.0.0.1:9000 --reporter junit --out report.xml
  $ svc-cli replay my-flows/session.json --hook-url http://127.0.0.1:9200/hooks --run-id 42
  $ svc-cli replay my-flows/ --integrator-url http://127.0.0.1:9000 --wait 10s   # started just before
  $ svc-cli replay --grep bot- --bail
  $ svc-cli replay --grep bot- --bot-url http://127.0.0.1:9100 --platform-port 8801 --bot-token dev-bot-token --bot-provider-id dev-provider   # your bot, answering to :8801
  $ svc-cli replay --concurrency 1                       # one conversation at a time
  $ svc-cli --time-scale 0.1 replay my-flows/ --platform-url http://127.0.0.1:8800`,
  run: {
    path: 'replay-run',
    sources: () => import('./replay-run.js'),
    call: (m, ctx, { args, flags }) => m.runReplay(ctx, args.paths, flags),
  },
});
