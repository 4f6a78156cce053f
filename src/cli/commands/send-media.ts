import { Argument, type Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { FILE_MEDIA_TYPES } from '../../roles/integrator/kinds.js';
import { addOptions } from '../options/register.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendMediaOptions } from './send-options.js';

/** `send-media <type>`: video, audio, voice, photo, sticker or document (spec 2.4). */
export function registerSendMedia(program: Command, ctx: CliContext): void {
  const command = program
    .command('send-media')
    .description('send a customer media message: a file link with name and size (spec 2.4)')
    .addArgument(new Argument('<type>', 'the media type').choices(FILE_MEDIA_TYPES));
  addOptions(command, sendMediaOptions)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-media photo --file https://cdn.example/cat.jpg --file-name cat.jpg --file-size 48213 --sender-id c-1
  $ svc-cli send-media document --file https://cdn.example/terms.pdf --sender-id c-1   # name from the URL, size from its server`,
    )
    .action(
      action(ctx, async (type: (typeof FILE_MEDIA_TYPES)[number], _opts: unknown, cmd: Command) => {
        const { runSend } = await loadRunPath('send-run', () => import('./send-run.js'));
        return runSend(ctx, { variant: 'media', type }, givenFlags(cmd));
      }),
    );
}
