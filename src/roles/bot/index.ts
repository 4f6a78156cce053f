/** The bot provider side of interface B (bot-sim): a scripted provider. Never prints. */
export { createBotProvider, type BotProvider, type BotProviderOptions } from './provider.js';
export {
  botScriptSchema,
  botScriptJsonSchema,
  loadBotScript,
  pickRule,
  fillMessage,
  DEFAULT_BOT_SCRIPT,
  type BotScript,
  type ScriptRule,
  type ScriptMessage,
  type ScriptInput,
} from './script.js';
export { sendToPlatform, platformEventUrl, type PlatformTarget } from './send.js';
export type {
  BotSimEvent,
  BotListeningEvent,
  BotReceivedEvent,
  BotRejectedEvent,
  BotSentEvent,
  BotSimTokenEvent,
} from './events.js';
