/** The body of `hook-target` (imported lazily): flags -> replies + fault plan -> receiver -> serve. */
import { resolve } from 'node:path';
import { localOrShippedFixture } from '../../package-files.js';
import { readInputFile } from '../../io/input-file.js';
import { parseJsonText } from '../../contract/json-text.js';
import { HOOK_EVENTS, type HookEventName } from '../../contract/hooks.js';
import { SvcError } from '../../errors.js';
import { closestNames } from '../../suggest.js';
import { formatIssue } from '../../contract/issues.js';
import {
  checkReply,
  createHookTarget,
  hookEventOf,
  type HookTargetListening,
} from '../../roles/hooks/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { hookTargetOptions } from './hook-target-options.js';
import { formatHookTargetEvent, formatHookTargetListening } from '../render/hook-events.js';
import { bannerLineOnly } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';
import { listeningWithFaults, roleServing, withFaultsLine } from '../serving-flags.js';

/**
 * Reads `--reply event=file` pairs; the event must be a hook event, the file JSON.
 * @example await loadReplies(ctx, ['chat_accepted=crm.json'], (line) => out.note(line))
 */
export async function loadReplies(
  ctx: Pick<CliContext, 'cwd'>,
  pairs: readonly string[],
  note: (line: string) => void = () => undefined,
): Promise<Partial<Record<HookEventName, unknown>>> {
  const replies: Partial<Record<HookEventName, unknown>> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const event = hookEventOf(pair.slice(0, Math.max(eq, 0)));
    if (eq <= 0 || event === undefined) {
      // a mistyped event is the likelier slip: name the one meant, and show the flag written out
      const [meant] =
        eq > 0 ? closestNames(pair.slice(0, eq), [...HOOK_EVENTS, 'offline_messages']) : [];
      throw new SvcError(
        'SVC_E_REPLY_FLAG',
        `Could not use --reply "${pair}": expected <event>=<file> with an event of ${HOOK_EVENTS.join(', ')}.${meant === undefined ? '' : ` Did you mean ${meant}?`}`,
        `Example: --reply ${meant ?? 'chat_accepted'}=${eq >= 0 ? pair.slice(eq + 1) : pair}`,
      );
    }
    const given = pair.slice(eq + 1);
    const file = localOrShippedFixture(ctx.cwd, given);
    // the reply comes from elsewhere than the path given: say where
    if (file !== resolve(ctx.cwd, given))
      note(`--reply ${event}: no ${given} here; using the one shipped with svc-cli, ${file}`);
    const text = await readInputFile({
      kind: 'hookReply',
      given,
      flag: `--reply ${event}`,
      cwd: ctx.cwd,
      path: file,
    });
    const parsed = parseJsonText(text);
    if (!parsed.ok)
      throw new SvcError(
        'SVC_E_READ',
        `Could not read the reply for ${event} from ${pair.slice(eq + 1)}:${parsed.line}:${parsed.column}: ${parsed.message}.`,
      );
    // served as written (a broken reply is a fair test of a platform), but said at start: a
    // reply file of one's own with a slip showed up only as "crm data not shown" later
    const { verdict } = checkReply(event, 200, text);
    if (!verdict.ok)
      note(
        `warning: --reply ${event}: ${given} breaks hook.${event}.reply (${verdict.errors.map(formatIssue).join('; ')}); served as written, so a platform will not take it`,
      );
    replies[event] = parsed.value;
  }
  return replies;
}

/**
 * Serves the hook receiver until ctx.signal aborts.
 * @example await runHookTarget(ctx, { port: '0', reply: ['chat_accepted=crm.json'] });
 */
export async function runHookTarget(
  ctx: CliContext,
  flags: Readonly<Record<string, unknown>>,
): Promise<void> {
  const options = resolveForCommand(ctx, hookTargetOptions, flags);
  if (options.path !== undefined && !options.path.startsWith('/')) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --path "${options.path}": it must start with /.`,
    );
  }
  const out = createOutput(ctx, { json: options.json, quiet: options.quiet });
  const replies = await loadReplies(ctx, options.reply, (line) => out.note(line));
  const serving = await roleServing(ctx, options, out, 'the receiver');
  const target = await createHookTarget({
    ...serving,
    ...(options.path === undefined ? {} : { path: options.path }),
    replies,
    onEvent: (event) => out.event(event, formatHookTargetEvent),
  });
  await serveUntilAborted<HookTargetListening>(ctx, {
    out,
    listening: listeningWithFaults(target.listening, serving.plan),
    format: withFaultsLine(
      options.quiet ? bannerLineOnly(formatHookTargetListening) : formatHookTargetListening,
      serving.plan,
      'distinct event',
    ),
    servers: [target],
    journals: [serving.journal],
  });
}

export type HookTargetOptions = Resolved<typeof hookTargetOptions>;
