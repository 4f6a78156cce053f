/** The bot part of `svc-cli platform` (interface B): flags -> bot options, and its banner. */
import { SvcError } from '../../errors.js';
import {
  BOT_DELIVERY_POLICY,
  parseRateLimit,
  type BotServiceOptions,
} from '../../platform/index.js';
import type { Output } from '../render/output.js';
import type { SimulatorSettings } from '../../conversation/record/profile.js';

export interface PlatformBotFlags {
  botProviderUrl?: string | undefined;
  botToken?: string | undefined;
  providerId: string;
  botAuthUrl?: string | undefined;
  botClientId?: string | undefined;
  botClientSecret?: string | undefined;
  botRateLimit: string;
  botName: string;
  botAttempts: number;
  /** default spec */
  botEvents?: 'spec' | 'docs' | undefined;
}

/**
 * The bot service options from the platform's flags; undefined without --bot-provider-url.
 * @example botOptions({ botProviderUrl: 'http://127.0.0.1:9100', botToken: 't' })?.providerId // 'dev-provider'
 */
export function botOptions(
  flags: PlatformBotFlags,
  settings?: Pick<SimulatorSettings, 'botPolicy' | 'botEvents'>,
): BotServiceOptions | undefined {
  if (flags.botProviderUrl === undefined) {
    if (flags.botToken || flags.botAuthUrl || flags.botClientId)
      throw new SvcError(
        'SVC_E_FLAG',
        'Could not attach a bot: --bot-provider-url is missing.',
        'Example: --bot-provider-url http://127.0.0.1:9100 --bot-token dev-bot-token',
      );
    return undefined;
  }
  const providerUrl = flags.botProviderUrl;
  if (!flags.botToken)
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not attach a bot: --bot-token is missing.',
      // no default: a real provider's token is its own, and a guessed one would send every
      // event to a path that provider does not serve
      'The token your bot provider generated (spec 5.2); svc-cli bot-sim serves dev-bot-token unless given --token: --bot-token dev-bot-token',
    );
  if (
    (flags.botClientId === undefined) !== (flags.botClientSecret === undefined) ||
    (flags.botAuthUrl && !flags.botClientId)
  )
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not use the token exchange: give --bot-client-id and --bot-client-secret together (and with --bot-auth-url).',
    );
  const rateLimit = parseRateLimit(flags.botRateLimit);
  if (!rateLimit)
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not use --bot-rate-limit "${flags.botRateLimit}": expected <n>/<window> such as 20/1s, 100/500ms or 600/1m.`,
    );
  return {
    providerUrl,
    token: flags.botToken,
    providerId: flags.providerId,
    senderName: flags.botName,
    rateLimit,
    // the public Bot API's CHAT_CLOSED / CLIENT_INFO: --bot-events docs, or the profile's
    ...(flags.botEvents === 'docs' || settings?.botEvents === 'docs'
      ? { botEvents: 'docs' as const }
      : {}),
    // spec 8: 2 attempts; the public Bot API words it "3 s, with 2 retries" (docs/FIDELITY.md).
    // --bot-attempts other than the spec's figure wins over the profile (it is the older alias)
    ...(flags.botAttempts !== BOT_DELIVERY_POLICY.attempts
      ? {
          policy: {
            ...(settings?.botPolicy ?? BOT_DELIVERY_POLICY),
            attempts: flags.botAttempts,
            failAfterMs:
              flags.botAttempts * (settings?.botPolicy ?? BOT_DELIVERY_POLICY).intervalMs,
          },
        }
      : settings && settings.botPolicy !== BOT_DELIVERY_POLICY
        ? { policy: settings.botPolicy }
        : {}),
    ...(flags.botClientId && flags.botClientSecret
      ? {
          auth: {
            clientId: flags.botClientId,
            clientSecret: flags.botClientSecret,
            ...(flags.botAuthUrl ? { tokenUrl: flags.botAuthUrl } : {}),
          },
        }
      : {}),
  };
}

/** The bot service URLs for the `listening` line; the token redacted unless --show-secrets. */
export function botUrls(url: string, bot: BotServiceOptions, showSecrets: boolean) {
  const token = showSecrets ? bot.token : '<token>';
  const id = encodeURIComponent(bot.providerId);
  return {
    providerUrl: `${bot.providerUrl}/${token}`,
    webhookUrl: `${url}/webhooks/${id}/${token}`,
    providersUrl: `${url}/providers/${id}/${token}`,
    ...(bot.auth ? { tokenUrl: `${url}/oauth/token` } : {}),
  };
}

/** Prints the bot service URLs; the token is redacted unless --show-secrets. */
export function printBotBanner(
  out: Output,
  url: string,
  bot: BotServiceOptions,
  showSecrets: boolean,
): void {
  const c = out.chalk;
  const token = showSecrets ? bot.token : '<token>';
  const id = encodeURIComponent(bot.providerId);
  // each note on a line of its own, under the URL: after it, the line broke at 80 columns
  const note = (text: string) => out.line(c.dim(`                ${text}`));
  out.line(`  bot events -> ${c.cyan(`${bot.providerUrl}/${token}`)}`);
  if (bot.botEvents === 'docs') note('(+ CHAT_CLOSED, CLIENT_INFO of the public Bot API)');
  out.line(`  bot webhook   ${c.cyan(`${url}/webhooks/${id}/${token}`)}`);
  out.line(`  bot providers ${c.cyan(`${url}/providers/${id}/${token}`)}`);
  if (!bot.auth) note('(needs --bot-client-id/--bot-client-secret)');
  if (bot.auth) out.line(`  token URL     ${c.cyan(`${url}/oauth/token`)}`);
  if (!showSecrets) out.line(c.dim('  (token redacted; --show-secrets prints it)'));
}
