/**
 * The files a user names on the command line (a hook body, a fault plan, a bot script ...) and
 * what to say when one cannot be read: what kind of file was wanted, the path as given, and
 * what writes one or where one is. Recordings have their own reader (journal/read-input.ts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SvcError, systemReason, type ErrorCode } from '../errors.js';

/** Each kind of input file: its name in messages and where one comes from. */
export const INPUT_FILES = {
  hookBody: {
    name: 'hook body',
    source:
      'A hook body is one JSON object: svc-cli hook-fire <event> --verbose prints one, and fixtures/payloads/hooks holds samples.',
  },
  hookReply: {
    name: 'hook reply',
    source:
      'A reply file holds the JSON reply to the event, as fixtures/hooks/crm-reply.json (shipped with svc-cli) does.',
  },
  faultPlan: {
    name: 'fault plan',
    source:
      'A plan is JSON such as {"version":1,"failFirst":2,"sequence":["status:503","reset"]}; schemas/fault-plan.schema.json describes it.',
  },
  botScript: {
    name: 'bot script',
    source:
      'fixtures/bots/shop.json (shipped with svc-cli) is one; leave --script out for the built-in script.',
  },
  customerScript: {
    name: 'customer script',
    source:
      'It holds the customer texts, one per line (# comments) or a JSON array of strings; --text <text> gives them one by one instead.',
  },
  conversation: {
    name: 'conversation',
    source:
      'svc-cli replay without a path runs ./fixtures/conversations, else the ones svc-cli ships; svc-cli record to-fixture session.ndjson --out flow.json writes one from a recording.',
  },
  config: {
    name: 'config file',
    source: 'Without --config, ./svc.config.json is read when present; svc-cli init writes one.',
  },
  profile: {
    name: 'profile',
    source:
      '--profile takes spec, docs, or a file that svc-cli record profile session.ndjson --out real.profile.json writes.',
  },
  cert: {
    name: 'certificate',
    source: '--cert and --key take PEM files; leave both out for a generated loopback certificate.',
  },
  key: {
    name: 'private key',
    source: '--cert and --key take PEM files; leave both out for a generated loopback certificate.',
  },
  ca: {
    name: 'CA certificate',
    source:
      '--ca takes the PEM certificate of the CA that signed the peer; an svc-cli server writes its own with --tls-cert-out <file>.',
  },
} as const satisfies Record<string, { name: string; source: string }>;

export type InputFileKind = keyof typeof INPUT_FILES;

export interface InputFile {
  /** the kind of file, for its name in messages and where one comes from */
  kind: InputFileKind;
  /** the path as the user gave it */
  given: string;
  /** the flag that named it, when the kind alone does not say (`--reply chat_accepted`) */
  flag?: string;
  /** the folder a relative path is read from (default process.cwd(); a fixture's own folder) */
  cwd?: string | undefined;
  /** the path to read when it is not `given` read from `cwd` (a shipped fixture) */
  path?: string;
  /** a name the user may have meant, said after the reason (`spec` for `spek`) */
  meant?: string | undefined;
  /** the catalogue code of the error (default SVC_E_READ) */
  code?: ErrorCode;
}

/**
 * The error for an input file that could not be read: a missing path says where a relative
 * one is read from, a folder asks for the file in it, and each says where one comes from.
 * @example unreadableFile({ kind: 'faultPlan', given: 'plan.json' }, enoent)
 */
export function unreadableFile(file: InputFile, error: unknown): SvcError {
  const { name, source } = INPUT_FILES[file.kind];
  const cwd = file.cwd ?? process.cwd();
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  const first =
    errno === 'ENOENT' || errno === 'ENOTDIR'
      ? `Check the path (a relative path is read from ${cwd}). `
      : errno === 'EISDIR'
        ? `Give the ${name}'s own path, not a folder's. `
        : '';
  return new SvcError(
    file.code ?? 'SVC_E_READ',
    `Could not read the ${name} ${file.given}${file.flag === undefined ? '' : ` (${file.flag})`}: ${systemReason(error)}${file.meant === undefined ? '' : ` (did you mean ${file.meant}?)`}.`,
    `${first}${source}`,
  );
}

const pathOf = (file: InputFile): string => file.path ?? resolve(file.cwd ?? '.', file.given);

/**
 * Reads an input file as text; one that cannot be read is an input error (unreadableFile).
 * @example const text = await readInputFile({ kind: 'faultPlan', given: 'plan.json', cwd });
 */
export async function readInputFile(file: InputFile): Promise<string> {
  try {
    return await readFile(pathOf(file), 'utf8');
  } catch (error) {
    throw unreadableFile(file, error);
  }
}

/**
 * `readInputFile`, synchronous: for what start-up reads before anything runs (the config file).
 * @example const text = readInputFileSync({ kind: 'config', given: 'svc.config.json', cwd });
 */
export function readInputFileSync(file: InputFile): string {
  try {
    return readFileSync(pathOf(file), 'utf8');
  } catch (error) {
    throw unreadableFile(file, error);
  }
}
