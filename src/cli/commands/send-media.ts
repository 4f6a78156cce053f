import type { Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addSendFlags, SEND_HELP_AFTER } from './send-flags.js';

/** `send-media <type>`: video, audio, voice, photo, sticker or document (spec 2.4). */
export function registerSendMedia(program: Command, ctx: CliContext): void {
  const command = program
    .command('send-media')
    .description('send a customer media message: a file link with name and size (spec 2.4)')
    .argument('<type>', 'video | audio | voice | photo | sticker | document')
    .option('--file <url>', 'http(s) URL of the file (required)')
    .option('--file-name <name>', 'file name (required)')
    .option('--file-size <bytes>', 'size in bytes, positive integer (required)')
    .option('--thumb <url>', 'thumbnail URL, 320 px wide')
    .option('--duration <s>', 'seconds, positive integer')
    .option('--width <px>', 'pixels, positive integer')
    .option('--height <px>', 'pixels, positive integer')
    .option('--caption <text>', 'text or comment (message.text)');
  addSendFlags(command)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-media photo --file https://cdn.example/cat.jpg --file-name cat.jpg --file-size 48213 --sender-id c-1`,
    )
    .action(
      action(ctx, async (type: string, _opts: unknown, cmd: Command) => {
        const { runSend } = await import('./send-run.js');
        return runSend(ctx, 'media', { ...givenFlags(cmd), type }, { type: '<type>' });
      }),
    );
}
