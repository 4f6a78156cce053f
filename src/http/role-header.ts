/**
 * Every reply of svc-cli's serving roles (`listen`, `hook-target`, `bot-sim`) says which one
 * answered, in `x-svc-role` (not part of the spec, which no platform reads). A command pointed
 * at the wrong side by mistake then says so instead of reporting a delivery or a contract
 * failure: `send-text` at listen, `conform hooks` at bot-sim.
 */
export const SVC_ROLE_HEADER = 'x-svc-role';

/** The command each serving role's `serveExchanges` name stands for. */
export const ROLE_COMMANDS: Readonly<Record<string, string>> = {
  listen: 'listen',
  hooks: 'hook-target',
  bot: 'bot-sim',
};

/** What each serving command plays, as the messages name it. */
const PLAYS: Readonly<Record<string, string>> = {
  listen: 'it plays the integrator and receives agent messages, spec 4.2',
  'hook-target': 'it plays a hook receiver, spec 4.4',
  'bot-sim': 'it plays a bot provider, spec 4.3',
};

/**
 * The svc-cli role a reply's headers name, with what it plays; undefined for any other peer.
 * @example svcRoleOf({ 'x-svc-role': 'listen' })?.plays // 'it plays the integrator and ...'
 */
export function svcRoleOf(
  headers: Readonly<Record<string, string>>,
): { command: string; plays: string } | undefined {
  const command = headers[SVC_ROLE_HEADER];
  if (command === undefined) return undefined;
  return { command, plays: PLAYS[command] ?? `it is one of svc-cli's serving roles` };
}
