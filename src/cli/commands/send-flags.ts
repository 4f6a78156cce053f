import { Option, type Command } from 'commander';

/**
 * Flags shared by the commands that send customer messages (spec 2.1). No defaults here:
 * defaults live in the option schemas (src/cli/options.ts) so config and env can apply.
 */
export function addSendFlags(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--channel-url <url>',
        'the channel URL from the channel settings: {base_url}/<random_string>/<channel_public_id> (env SVC_CHANNEL_URL)',
      ),
    )
    .addOption(
      new Option('--sender-id <id>', "the customer's id in your system (env SVC_SENDER_ID)"),
    )
    .option('--name <name>', 'customer name shown to the agent')
    .option('--phone <phone>', 'customer phone')
    .option('--email <email>', 'customer e-mail')
    .option('--photo <url>', 'customer avatar, http(s) URL')
    .option('--invite <text>', 'invitation text shown to the agent as context')
    .option('--message-id <id>', 'your message id (message.id)')
    .option('--force', 'send even when the payload breaks the contract (to test the platform)')
    .option('--chunked', 'send the body with Transfer-Encoding: chunked')
    .option('--timeout <ms>', 'wait at most this long for the reply (default 10000; assumed)');
}

export const SEND_HELP_AFTER = `
Prints the platform's status, body and latency. Exit codes: 0 delivered (HTTP 200),
1 the platform refused it (404: no channel has that public id), 2 invalid flags or payload
(without --force), 3 platform unreachable or timed out.`;
