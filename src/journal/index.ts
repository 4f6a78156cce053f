export {
  createJournal,
  createRedactor,
  type Journal,
  type JournalOptions,
  type ExchangeRecord,
  type ExchangeInput,
  type Redactor,
} from './journal.js';
export { toHar } from './har.js';
