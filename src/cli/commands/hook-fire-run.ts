/** The body of `hook-fire` (imported lazily): flags -> body -> fire -> rendered verdict. */
import { resolve } from 'node:path';
import { localOrShippedFixture } from '../../package-files.js';
import { readInputFile } from '../../io/input-file.js';
import { parseJsonText } from '../../contract/json-text.js';
import { createClock } from '../../clock.js';
import { EXIT_CODES, SvcError } from '../../errors.js';
import { assertReachable } from '../../http/reach.js';
import { parseDuration } from '../../duration.js';
import { loadProfile, settingsOf } from '../../conversation/record/profile.js';
import { shapeSent } from '../../platform/payload-forms.js';
import {
  fireAllHooks,
  fireHook,
  notAHookTarget,
  startReceiverHint,
  type FireResult,
} from '../../roles/hooks/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { hookFireOptions } from './hook-fire-options.js';
import {
  formatHookFired,
  formatHookFireSummary,
  toHookFiredEvent,
  type HookFireSummary,
} from '../render/hook-events.js';
import { createOutput } from '../render/output.js';

async function readBody(
  ctx: CliContext,
  file: string,
  note: (line: string) => void,
): Promise<unknown> {
  const path = localOrShippedFixture(ctx.cwd, file);
  // the body comes from elsewhere than the path given: say where
  if (path !== resolve(ctx.cwd, file))
    note(`--from: no ${file} here; using the one shipped with svc-cli, ${path}`);
  const text = await readInputFile({ kind: 'hookBody', given: file, cwd: ctx.cwd, path });
  // V8's message quoted the file's start across lines; the place of the error is what helps
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    throw new SvcError(
      'SVC_E_READ',
      `Could not read the hook body ${file}:${parsed.line}:${parsed.column}: ${parsed.message}.`,
      'The file holds one JSON object, the body to send (svc-cli hook-fire <event> --verbose prints one).',
    );
  return parsed.value;
}

/**
 * Fires one event (or all) and prints each result; 1 when a reply breaks the contract.
 * @example await runHookFire(ctx, { event: 'chat_accepted', url: 'http://127.0.0.1:9200' });
 */
export async function runHookFire(
  ctx: CliContext,
  flags: Readonly<Record<string, unknown>>,
  event: string | undefined,
): Promise<number> {
  const resolved = resolveForCommand(ctx, hookFireOptions, flags);
  const url = resolved.url ?? resolved.hookUrl;
  if (url === undefined) {
    throw new SvcError(
      'SVC_E_OPTIONS',
      'Could not fire: no hook receiver URL.',
      'Give --url <url> (or set SVC_HOOK_URL, or "hookUrl" in svc.config.json).',
    );
  }
  const options = { ...resolved, url, event };
  if (options.all && (options.event !== undefined || options.from !== undefined)) {
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not fire: --all takes no <event> and no --from.',
      'Fire every event with --all alone (svc-cli hook-fire --all --url <receiver>), or one event without --all.',
    );
  }
  if (!options.all && options.event === undefined && options.from === undefined) {
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not fire: name an <event>, or give --from <file> or --all.',
      'Example: svc-cli hook-fire chat_accepted --url http://127.0.0.1:9200',
    );
  }
  const waitMs = options.wait === undefined ? undefined : parseDuration(options.wait, '--wait');
  const out = createOutput(ctx, { json: options.json });
  // --wait: a receiver started in the background just before
  if (waitMs !== undefined) {
    // the code and the advice a receiver that refuses the event itself gets, --wait or not
    await assertReachable(options.url, 'the hook receiver', {
      waitMs,
      action: 'fire',
      signal: ctx.signal,
      code: 'SVC_E_HOOK_UNREACHABLE',
      hint: startReceiverHint(options.url),
    });
  }
  const clock = createClock({ timeScale: options.timeScale });
  // --profile: docs lets the public page's client events be fired; a file sends its forms
  const settings =
    options.profile === 'spec'
      ? undefined
      : settingsOf(await loadProfile(options.profile, ctx.cwd));
  const forms = settings?.forms;
  const common = {
    url: options.url,
    sets: options.set,
    timeoutMs: options.timeout,
    clock,
    signal: ctx.signal,
    ...(options.chatId === undefined ? {} : { chatId: options.chatId }),
    ...(options.offlineName ? { offlineName: options.offlineName } : {}),
    ...(settings?.hookEvents === 'docs' ? { events: 'docs' as const } : {}),
    ...(forms
      ? { reshape: (kind: string, text: string) => shapeSent({ forms, clock }, kind, text) }
      : {}),
  };
  // another svc-cli role answered: stop before a "conforms" line (--all: before the next event)
  const print = (result: FireResult): void => {
    const wrongPeer = notAHookTarget(result);
    if (wrongPeer) throw wrongPeer;
    out.event(toHookFiredEvent(result), (event, c) =>
      formatHookFired(event, c, { verbose: options.verbose }),
    );
  };
  const results = options.all
    ? await fireAllHooks(common, print)
    : [
        await fireHook({
          ...common,
          ...(options.event === undefined ? {} : { event: options.event }),
          ...(options.from === undefined
            ? {}
            : { body: await readBody(ctx, options.from, (line) => out.note(line)) }),
        }),
      ];
  if (!options.all) print(results[0]!);
  const conform = results.filter((r) => r.verdict.ok).length;
  // the chat the run's events were about: --chat-id sends more events about it
  const chatId = results.find((r) => r.chatId !== undefined)?.chatId;
  const invalidRequests = results.filter((r) => !r.requestVerdict.ok).length;
  const summary: HookFireSummary = {
    type: 'summary',
    fired: results.length,
    conform,
    broken: results.length - conform,
    ...(invalidRequests > 0 ? { invalidRequests } : {}),
    ...(chatId === undefined ? {} : { chatId }),
    ...(chatId !== undefined && options.from !== undefined && options.chatId === undefined
      ? { chatFromBody: true }
      : {}),
    ...(chatId !== undefined && options.chatId !== undefined ? { chatFromFlag: true } : {}),
  };
  out.event(summary, (event, c) => formatHookFireSummary(event, c));
  return summary.broken === 0 ? EXIT_CODES.ok : EXIT_CODES.contract;
}
