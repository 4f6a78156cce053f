import { defineCommand } from './spec.js';
import { FILE_MEDIA_TYPES } from '../../roles/integrator/kinds.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendMediaOptions } from './send-options.js';

/** `send-media <type>`: video, audio, voice, photo, sticker or document (spec 2.4). */
export const sendMediaCommand = defineCommand({
  name: 'send-media',
  description: 'send a customer media message: a file link with name and size (spec 2.4)',
  arguments: [{ name: 'type', description: 'the media type', choices: FILE_MEDIA_TYPES }],
  options: sendMediaOptions,
  helpAfter: `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-media photo --file https://cdn.example/cat.jpg --file-name cat.jpg --file-size 48213 --sender-id c-1
  $ svc-cli send-media document --file https://cdn.example/terms.pdf --sender-id c-1   # name from the URL, size from its server`,
  run: {
    path: 'send-run',
    sources: () => import('./send-run.js'),
    call: (m, ctx, { args, flags }) => m.runSend(ctx, { variant: 'media', type: args.type }, flags),
  },
});
