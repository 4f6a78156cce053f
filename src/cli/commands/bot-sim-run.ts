/** The body of `bot-sim` (imported lazily): flags -> script and fault plan -> provider -> serve. */
import { resolve } from 'node:path';
import { createClock } from '../../clock.js';
import type { FaultPlan } from '../../faults/index.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { localOrShippedFixture } from '../../package-files.js';
import { createBotProvider, loadBotScript, type BotListeningEvent } from '../../roles/bot/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { botSimOptions } from './bot-sim-options.js';
import { formatBotSimEvent, formatBotSimListening } from '../render/bot-sim-events.js';
import { bannerLineOnly } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';
import {
  buildFaultPlan,
  createRecordJournal,
  listeningWithFaults,
  recordPolicyOf,
  serverTls,
  withFaultsLine,
} from '../serving-flags.js';

/**
 * Where `--script` is read: the working folder's file, else the one svc-cli ships under that
 * `fixtures/...` name (the docs name them so), with a note saying which.
 * @example scriptPath(ctx, 'fixtures/bots/shop.json', out) // '<package>/fixtures/bots/shop.json'
 */
function scriptPath(
  ctx: Pick<CliContext, 'cwd'>,
  given: string,
  out: { note: (line: string) => void },
): string {
  const path = localOrShippedFixture(ctx.cwd, given);
  // the rules come from elsewhere than the path given: say where
  if (path !== resolve(ctx.cwd, given))
    out.note(`--script: no ${given} here; using the one shipped with svc-cli, ${path}`);
  return path;
}

/**
 * Serves the scripted provider until ctx.signal aborts.
 * @example await runBotSim(ctx, { port: '0', platformUrl: 'http://127.0.0.1:8800' });
 */
export async function runBotSim(
  ctx: CliContext,
  flags: Readonly<Record<string, unknown>>,
): Promise<void> {
  const o = resolveForCommand(ctx, botSimOptions, flags);
  const out = createOutput(ctx, { json: o.json, quiet: o.quiet });
  const plan: FaultPlan = await buildFaultPlan(ctx, o);
  if (o.silent) plan.fault = { kind: 'hang' }; // never answer: exercises the 3 s x 2 timeouts
  const script = o.script
    ? await loadBotScript(scriptPath(ctx, o.script, out), { given: o.script, cwd: ctx.cwd })
    : undefined;
  if (isNonLoopbackHost(o.host))
    out.note(`warning: --host ${o.host} exposes bot-sim beyond this machine.`);
  // informational: --quiet prints only the listening line and errors (README)
  if (!o.platformUrl && !o.quiet)
    out.note('note: no --platform-url: bot-sim answers events but sends none back.');
  if (!o.quiet)
    out.note(
      o.botEvents === 'docs'
        ? 'bot events: docs: an e-mail or phone in a customer message goes on as CLIENT_INFO (public Bot API).'
        : 'bot events: spec (no CLIENT_INFO; --bot-events docs sends it).',
    );
  const showSecrets = o.showSecrets;
  const journal = createRecordJournal(
    ctx,
    o.record,
    {
      keep: 1000,
      showSecrets,
      ...(showSecrets
        ? {}
        : {
            redact: (text: string) =>
              text.split(o.token).join('<token>').split(o.clientSecret).join('<secret>'),
          }),
    },
    recordPolicyOf(o, out),
  );
  const tls = await serverTls(ctx, o, (line) => out.note(line));
  const bot = await createBotProvider({
    tls,
    token: o.token,
    providerId: o.providerId,
    ...(o.platformUrl ? { platformUrl: o.platformUrl } : {}),
    ...(script ? { script } : {}),
    botEvents: o.botEvents,
    ...(o.auth ? { auth: { clientId: o.clientId, clientSecret: o.clientSecret } } : {}),
    plan,
    bodyLimit: o.bodyLimit,
    host: o.host,
    allowedHosts: o.allowedHost,
    port: o.port,
    clock: createClock({ timeScale: o.timeScale }),
    journal,
    onEvent: (event) => out.event(event, formatBotSimEvent),
  });
  await serveUntilAborted<BotListeningEvent>(ctx, {
    out,
    listening: listeningWithFaults(bot.listening, plan),
    format: withFaultsLine(
      o.quiet ? bannerLineOnly(formatBotSimListening) : formatBotSimListening,
      plan,
      'distinct event',
    ),
    servers: [bot],
    journals: [journal],
  });
}
