import { defineCommand } from './spec.js';
import { recordDiffOptions, recordProfileOptions, toFixtureOptions } from './record-options.js';

const toFixtureCommand = defineCommand({
  name: 'to-fixture',
  description:
    'turn a recording (platform, listen or proxy --record: NDJSON or .har) into a conversation that replay runs',
  arguments: [
    {
      name: 'recording',
      description: 'session.ndjson, session.har or a saved GET /_sim/journal answer; - for stdin',
    },
  ],
  options: toFixtureOptions,
  helpAfter: `
Customer messages become customer steps (with the recorded sender), agent messages agent
steps with delivery expectations (result, attempts) and one integrator expectation per
attempt; the integrator's recorded replies become the embedded listen's fault sequence,
so the conversation replays green. Hook events the platform sent become hook expectations
(event_name, agent, visitor contacts, the recorded reply as $reply) and the recorded replies
the embedded hook-target's setup.hooks.replies; hook-triggering control calls (assign, rate,
close, visitor update, offline form, calls) become control steps, and a chat closed in the
agent console a close step. --record appends: a file that holds several runs is converted
in the order they ran (svc-cli says so and lists them), or one of them with --run <id>.
The peers' failures in the recording (the integrator's refused attempts, the receiver's
failed hook replies) are expected again; --peer-failures drop writes the conversation for
a peer that accepts at once, as one recorded on staging before the peer was fixed.

Examples:
  $ svc-cli platform --record session.ndjson --integrator-url http://127.0.0.1:9000 --hook-url http://127.0.0.1:9200/hooks
  $ svc-cli record to-fixture session.ndjson --out my-session.json
  $ svc-cli record to-fixture session.ndjson --run 00c3 --out one-run.json   # one of its runs
  $ svc-cli record to-fixture staging.ndjson --peer-failures drop --out healthy.json
  $ svc-cli replay my-session.json`,
  run: {
    path: 'record-run',
    sources: () => import('./record-run.js'),
    call: (m, ctx, { args, flags }) => m.runToFixture(ctx, args.recording, flags),
  },
});

const recordDiffCommand = defineCommand({
  name: 'diff',
  description:
    'compare two recordings: payload shapes, statuses, redelivery, bot timing, order, headers',
  arguments: [
    {
      name: 'a',
      description:
        'the first recording (e.g. made through proxy against the real platform); - for stdin',
    },
    {
      name: 'b',
      description:
        'the second recording (e.g. the simulator replaying the same conversations); - for stdin',
    },
  ],
  options: recordDiffOptions,
  helpAfter: `
Both files are read a line at a time and summed up per payload kind, so recordings of any
length compare in bounded memory. Differences come in three groups: behaviour (kinds sent,
status codes, an error object in the 2xx answers of one side only, attempts per message and
how a series ended, redelivery offsets, attempt timeouts, bot hand-over times, the order of
kinds across interfaces), shape (fields present, absent or typed differently, numeric
strings and ms timestamps told apart, Content-Type) and cosmetic (how often an optional field shows, chunked or sized bodies, the
platform's Keep-Alive). Transport headers of the peer's answers are not compared.

Examples:
  $ svc-cli proxy channel --platform-url https://<platform>/<random>/<id> \\
      --integrator-url http://127.0.0.1:9000/agent-messages --record real.ndjson
  $ svc-cli platform --integrator-url http://127.0.0.1:9000/agent-messages --record sim.ndjson
  $ svc-cli record diff real.ndjson sim.ndjson
  $ svc-cli record diff real.ndjson sim.ndjson --timing-tolerance 1s --json`,
  run: {
    path: 'record-diff-run',
    sources: () => import('./record-diff-run.js'),
    call: (m, ctx, { args, flags }) => m.runRecordDiff(ctx, args.a, args.b, flags),
  },
});

const recordProfileCommand = defineCommand({
  name: 'profile',
  description:
    'learn a platform profile from recordings: retry schedule, bot timeouts, field forms, statuses',
  arguments: [
    {
      name: 'recordings',
      variadic: true,
      description:
        'one or more recordings (NDJSON, HAR or a saved GET /_sim/journal answer); - for stdin',
    },
  ],
  options: recordProfileOptions,
  helpAfter: `
The profile says what the recordings showed, each figure with the number of observations
behind it: the attempts, interval, per-attempt wait and give-up time of agent messages to the
integrator and of bot events (the bot's hand-over), the public Bot API's extra events when
seen, the platform's Keep-Alive, and per payload kind its statuses and the forms of its fields
(numeric ids, millisecond timestamps, extra fields). platform --profile and replay --profile
make the simulator follow it; the spec fills what it does not say. JSON Schema:
schemas/profile.schema.json.

Examples:
  $ svc-cli record profile real.ndjson --out real.profile.json
  $ svc-cli platform --profile real.profile.json --integrator-url http://127.0.0.1:9000/agent-messages
  $ svc-cli replay fixtures/conversations/text-both-ways.json --profile real.profile.json`,
  run: {
    path: 'record-profile-run',
    sources: () => import('./record-profile-run.js'),
    call: (m, ctx, { args, flags }) => m.runRecordProfile(ctx, args.recordings, flags),
  },
});

/** `record to-fixture|diff|profile`: work with recorded sessions. */
export const recordCommand = defineCommand({
  name: 'record',
  description: 'work with recordings written by --record (NDJSON or HAR 1.2)',
  helpAfter: `
Examples:
  $ svc-cli record to-fixture session.ndjson > my-flow.json
  $ svc-cli record to-fixture session.har --name "checkout flow" --out my-flow.json
  $ svc-cli record diff real.ndjson sim.ndjson --timing-tolerance 500ms
  $ svc-cli record profile real.ndjson --out real.profile.json`,
  subcommands: [toFixtureCommand, recordDiffCommand, recordProfileCommand],
});
