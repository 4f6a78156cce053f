export {
  createJournal,
  createRedactor,
  type Journal,
  type JournalOptions,
  type ExchangeRecord,
  type ExchangeInput,
} from './journal.js';
export { toHar } from './har.js';
