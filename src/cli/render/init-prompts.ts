/**
 * The questions of `svc-cli init` (inquirer lives in src/cli only). Streams are injected
 * (`{ input, output }`), so tests answer through a PassThrough instead of a terminal.
 */
import type { Readable, Writable } from 'node:stream';
import type { Role } from '../config-file.js';

export interface PromptStreams {
  input: Readable;
  output: Writable;
  signal?: AbortSignal;
}

export interface InitAnswers {
  role: Role;
  channelUrl?: string;
  senderId?: string;
  integratorUrl?: string;
  botProviderUrl?: string;
  hookUrl?: string;
  widgetUrl?: string;
}

export const ROLE_CHOICES: readonly { value: Role; name: string; description: string }[] = [
  {
    value: 'integrator',
    name: 'Integrator',
    description: 'you connect your own chat front end as a channel (interface A)',
  },
  {
    value: 'bot-provider',
    name: 'Bot provider',
    description: 'your bot answers CLIENT_MESSAGE events (interface B)',
  },
  {
    value: 'hook-receiver',
    name: 'Hook receiver',
    description: 'your CRM or analytics receives event hooks (interface D)',
  },
  {
    value: 'web-developer',
    name: 'Web developer',
    description: 'your page uses the widget script API svc_api (interface C)',
  },
  {
    value: 'platform-qa',
    name: 'Platform QA',
    description: 'you test the platform side with the integrator side of this tool',
  },
];

/**
 * Which URL questions a role is asked, in order: what that role's commands read. A hook
 * receiver is reached through its hook URL alone (platform --hook-url, hook-fire, conform
 * hooks); the channel URL and the customer id are the integrator's.
 */
export const QUESTIONS_BY_ROLE: Readonly<Record<Role, readonly (keyof InitAnswers)[]>> = {
  integrator: ['integratorUrl', 'channelUrl', 'senderId'],
  'bot-provider': ['botProviderUrl', 'channelUrl'],
  'hook-receiver': ['hookUrl'],
  'web-developer': ['widgetUrl'],
  'platform-qa': ['channelUrl', 'senderId', 'integratorUrl'],
};

export const QUESTION_TEXT: Readonly<Record<Exclude<keyof InitAnswers, 'role'>, string>> = {
  integratorUrl: 'Your agent-message endpoint (the platform POSTs <url>/<channel_public_id>):',
  channelUrl: 'The channel URL, if you have one (empty: use the embedded simulator):',
  senderId: 'A customer id to send as (sender.id):',
  botProviderUrl: 'Your bot provider endpoint (the platform POSTs <url>/<token>):',
  hookUrl: 'Your event-hook receiver URL:',
  widgetUrl: 'The page that loads the widget, if any:',
};

/**
 * Asks the role (unless `roleGiven`: `--role` on the command line answered it), then the role's
 * questions; `defaults` pre-fill every answer.
 * @example await askInitQuestions({ input: process.stdin, output: process.stdout }, { role: 'integrator' }, check)
 */
export async function askInitQuestions(
  streams: PromptStreams,
  defaults: Partial<InitAnswers> & { role: Role },
  validateUrl: (value: string) => string | true,
  roleGiven = false,
): Promise<InitAnswers> {
  const { select, input } = await import('@inquirer/prompts');
  const context = {
    input: streams.input,
    output: streams.output,
    ...(streams.signal ? { signal: streams.signal } : {}),
  };
  const role = roleGiven
    ? defaults.role
    : await select<Role>(
        {
          message: 'Which part do you play?',
          choices: ROLE_CHOICES.map((c) => ({ ...c })),
          default: defaults.role,
        },
        context,
      );
  const answers: InitAnswers = { role };
  for (const key of QUESTIONS_BY_ROLE[role]) {
    if (key === 'role') continue;
    const fallback = defaults[key];
    const isUrl = key !== 'senderId';
    const value = await input(
      {
        message: QUESTION_TEXT[key],
        ...(fallback === undefined ? {} : { default: fallback }),
        validate: (v: string) => (v.trim() === '' || !isUrl ? true : validateUrl(v.trim())),
      },
      context,
    );
    if (value.trim() !== '') answers[key] = value.trim();
  }
  return answers;
}
