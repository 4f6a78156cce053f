export {
  createJournal,
  newRunId,
  createRedactor,
  type Journal,
  type JournalOptions,
  type ExchangeRecord,
  type ExchangeInput,
  type Redactor,
  type RecordingFailure,
  type RecordingStatus,
  type RecordSync,
} from './journal.js';
export { toHar } from './har.js';
export { PUSH_KIND_PREFIX, isPushRecord, pushIdOf } from './record.js';
export { journalStep, recordExchange, throughJournal } from './record-exchange.js';
