/**
 * What each error code of the catalogue (`error-codes.ts`) means and what to do about it,
 * for `svc-cli explain SVC_E_...`. Typed by the catalogue: a new code without a line here does
 * not compile.
 */
import type { ErrorCode } from './error-codes.js';

export interface ErrorHelp {
  summary: string;
  todo: string;
  /** the section of docs/CONTRACT.md the error is about, when it is about the contract */
  spec?: string;
}

export const ERROR_HELP: Record<ErrorCode, ErrorHelp> = {
  SVC_E_USAGE: {
    summary: 'the command line asks for something svc-cli cannot do',
    todo: 'Read the usage line and `svc-cli <command> --help`.',
  },
  SVC_E_FLAG: {
    summary:
      'a flag svc-cli cannot act on: a value it cannot use, a flag the command needs but was not given, a flag of another command or suite, or a file or folder it names that is not there',
    todo: 'The message names the flag and what would work; `svc-cli <command> --help` lists each flag with its type and default.',
  },
  SVC_E_OPTIONS: {
    summary:
      "an option's value is out of its type or range, or missing, wherever it came from (a flag, an SVC_* variable, the config file), or two options do not go together",
    todo: 'The message names each bad value and where it came from; fix it there, or drop one of two flags that conflict. `svc-cli <command> --help` lists the flags.',
  },
  SVC_E_UNKNOWN_COMMAND: {
    summary: 'no command by that name',
    todo: 'Run `svc-cli --help` for the list; the message suggests the closest name.',
  },
  SVC_E_CONFIG: {
    summary: 'svc.config.json could not be read or has a value of the wrong type',
    todo: 'Fix the key the message names; `svc-cli config <command>` shows every value and its source.',
  },
  SVC_E_CONFIG_EXISTS: {
    summary: 'svc-cli init would overwrite an existing config file',
    todo: 'Pass --force to overwrite it, or --config <file> for another file.',
  },
  SVC_E_CONFIG_VERSION: {
    summary: 'the config file names a version this svc-cli does not know',
    todo: 'Set "version": 1, or upgrade svc-cli.',
  },
  SVC_E_READ: {
    summary: 'a file svc-cli was given could not be read',
    todo: 'Check the path (a relative one is read from the folder svc-cli runs in) and its permissions; the hint says what kind of file was wanted and what writes one or where one is.',
  },
  SVC_E_WRITE: {
    summary: 'a file or folder could not be written',
    todo: 'Give a path in a folder that exists and that you may write.',
  },
  SVC_E_NO_INPUT: {
    summary: 'validate got no file and stdin is a terminal',
    todo: 'Name a file or folder, or pipe a payload in: `cat msg.json | svc-cli validate`.',
  },
  SVC_E_RECORD: {
    summary: 'the --record file cannot be opened',
    todo: 'Give a file in a folder that exists, e.g. --record session.ndjson.',
  },
  SVC_E_TLS_FILE: {
    summary: 'a certificate, key or CA file could not be read or parsed',
    todo: 'Give PEM files (--cert, --key, --ca); leave them out for a loopback certificate.',
  },
  SVC_E_PROXY_UPSTREAM: {
    summary: 'the proxy was given no usable upstream URL',
    todo: 'Name the real party each leg forwards to by its http(s) URL: proxy channel --platform-url and/or --integrator-url, proxy bot --platform-url and/or --provider-url, proxy hooks --receiver-url.',
  },
  SVC_E_RECORDING: {
    summary:
      'a recording holds no exchange (empty, never written, or not a journal), or nothing record to-fixture can turn into a conversation',
    todo: 'Record with `svc-cli platform --record session.ndjson` and send messages through it.',
  },
  SVC_E_PROFILE: {
    summary: 'a --profile is neither spec, docs nor a readable profile file of a known version',
    todo: 'Give --profile spec, --profile docs, or a file written by `svc-cli record profile`.',
  },
  SVC_E_LISTEN: {
    summary: 'a server could not start listening',
    todo: 'Check --host and --port; the message gives the system reason.',
  },
  SVC_E_PORT_IN_USE: {
    summary: 'the port is taken by another process',
    todo: 'Stop the other process (an earlier `svc-cli … &` in this shell: `jobs`, `kill %N`), pick another --port, or --port 0 to let the system choose.',
  },
  SVC_E_FAULT_PLAN: {
    summary: 'a fault plan (file or flags) is not valid',
    todo: 'Fix the entry the message names; schemas/fault-plan.schema.json describes the format.',
  },
  SVC_E_BOT_SCRIPT: {
    summary: 'a bot-sim script is not valid',
    todo: 'Fix the entry the message names; schemas/bot-script.schema.json describes the format.',
  },
  SVC_E_BOT_SCRIPT_VERSION: {
    summary: 'the bot script names a version this svc-cli does not know',
    todo: 'Set "version": 1, or upgrade svc-cli.',
  },
  SVC_E_CONVERSATION: {
    summary: 'a conversation fixture is not valid JSON or breaks its format',
    todo: 'Fix the line and field the message names; schemas/conversation.schema.json describes the format.',
  },
  SVC_E_CONVERSATION_VERSION: {
    summary: 'a fixture names a version this svc-cli does not know',
    todo: 'Set "version": 1, or upgrade svc-cli.',
  },
  SVC_E_NO_CONVERSATIONS: {
    summary: 'replay found no conversation files where it looked',
    todo: 'Name a folder or files ending in .json (fixtures/conversations has examples).',
  },
  SVC_E_CONCURRENCY: {
    summary: 'replay --concurrency is out of range',
    todo: 'Give a whole number of at least 1.',
  },
  SVC_E_REPLY_FLAG: {
    summary: 'a hook-target --reply flag could not be read',
    todo: 'Write it as <event>=<json or file>, e.g. --reply chat_accepted=reply.json.',
  },
  SVC_E_SET: {
    summary: 'a --set override is not path=value',
    todo: 'Example: --set visitor.name=Jane --set chat_id=7.',
  },
  SVC_E_SET_FORBIDDEN_KEY: {
    summary: 'a --set path names __proto__, constructor or prototype',
    todo: 'Use a field name of the payload.',
  },
  SVC_E_HOOK_BODY: {
    summary: 'the hook body given to hook-fire is not a JSON object',
    todo: 'Give a JSON object (a file or inline), or leave it out for a generated event.',
    spec: '6.2',
  },
  SVC_E_UNKNOWN_EVENT: {
    summary: 'no hook or bot event by that name',
    todo: 'Section 6 lists the events; the message suggests the closest name.',
    spec: '6.2',
  },
  SVC_E_UNKNOWN_KIND: {
    summary: 'no payload kind by that name',
    todo: '`svc-cli schema --list` lists the kinds; the message suggests the closest name.',
    spec: '2.1',
  },
  SVC_E_UNKNOWN_MUTANT: {
    summary: 'no simulator mutant by that name (--mutant, SVC_MUTANT)',
    todo: '`svc-cli mutate --list` lists the mutants; unset SVC_MUTANT for a clean run.',
  },
  SVC_E_MUTATE_CLEAN_RUN: {
    summary: 'the test command failed against the unmutated simulator',
    todo: 'Make the suite pass first: a mutant is only killed when the clean run is green.',
  },
  SVC_E_UNKNOWN_TOPIC: {
    summary: 'svc-cli explain knows no section, kind, field, rule code or error code by that name',
    todo: 'Take the suggestion, or look through docs/CONTRACT.md (svc-cli schema --list lists the kinds).',
  },
  SVC_E_CHANNEL_URL: {
    summary: 'the channel URL does not have the form the platform gives out',
    todo: 'Copy it from the channel settings: {base_url}/<random_string>/<channel_public_id>.',
    spec: '1.3',
  },
  SVC_E_NOT_A_CHANNEL: {
    summary: "the URL answers as svc-cli listen (the integrator's side), not as a platform channel",
    todo: 'Point send-text and status at the channel URL `svc-cli platform` prints.',
    spec: '4.1',
  },
  SVC_E_NOT_A_HOOK_TARGET: {
    summary: 'the URL answers as another svc-cli role (listen, bot-sim), not as a hook receiver',
    todo: 'Point hook-fire at your hook receiver, or at the URL `svc-cli hook-target` prints.',
    spec: '4.4',
  },
  SVC_E_PHONE: {
    summary: 'a phone number is not in a usable format',
    todo: 'Example: +49 30 1234567.',
    spec: '4.5',
  },
  SVC_E_DURATION: {
    summary: 'a duration (--wait, load --duration, conform --fuzz-time ...) could not be read',
    todo: 'Write it with a unit: 500ms, 30s, 2m.',
  },
  SVC_E_LOAD_MIX: {
    summary: 'a load --mix entry names no known kind or is not kind=weight',
    todo: 'Example: --mix text=80,photo=10,typing=10 (kinds: text, typing, video, audio, voice, photo, sticker, document, location), or a folder of conversation fixtures: --mix fixtures/conversations.',
  },
  SVC_E_LOAD_RATE: {
    summary: 'a load rate could not be read',
    todo: 'Write it as a count per time: 50/s, 600/m.',
  },
  SVC_E_LOAD_RATIO: {
    summary: 'a load ratio is outside 0..1',
    todo: 'Give a fraction between 0 and 1.',
  },
  SVC_E_LOAD_THRESHOLD: {
    summary: 'a load --threshold could not be read',
    todo: 'Example: --threshold "p99<500ms" --threshold "failed<1%".',
  },
  SVC_E_INVALID_PAYLOAD: {
    summary: 'the payload breaks the contract, so svc-cli did not send it',
    todo: 'Fix the fields listed under the error, or pass --force to send it anyway.',
    spec: '2.1',
  },
  SVC_E_NOT_SVC_PLATFORM: {
    summary: '--platform-url does not answer like an svc-cli simulator',
    todo: 'Point it at `svc-cli platform` (its /_sim control API), or leave it out to start one.',
  },
  SVC_E_CONTROL_BODY: {
    summary: 'a control API request body is not valid',
    todo: 'Fix the field the message names.',
  },
  SVC_E_AGENT_MESSAGE: {
    summary: 'the simulated agent message is not valid',
    todo: 'Fix the field the message names; section 2.2 lists the fields.',
    spec: '2.2',
  },
  SVC_E_NO_CHAT: {
    summary: 'the simulator has no chat with that id',
    todo: 'GET /_sim/state lists the open chats.',
  },
  SVC_E_NO_CHANNEL: {
    summary: 'the simulator has no channel with that public id',
    todo: 'GET /_sim/state lists the channels.',
    spec: '4.1',
  },
  SVC_E_NO_AGENT: {
    summary: 'the simulator has no agent to act as',
    todo: 'Start the platform with at least one agent (the default has one).',
  },
  SVC_E_NO_EXCHANGE: {
    summary: 'the journal has no exchange with that number',
    todo: 'GET /_sim/journal lists the recent exchanges with their seq.',
  },
  SVC_E_NO_CRM_LINK: {
    summary: 'the chat cannot be assigned: the chat_accepted reply carried no crm_link',
    todo: 'Reply to chat_accepted with {"result":"ok","crm_link":"..."}.',
    spec: '6.2',
  },
  SVC_E_CHAT_CLOSED: {
    summary: 'the chat is already closed',
    todo: 'Start a new chat by sending a customer message.',
  },
  SVC_E_AGENTS_ONLINE: {
    summary: 'the offline form is refused while agents are online',
    todo: 'Take the agents offline first (the widget shows the chat instead).',
    spec: '4.5',
  },
  SVC_E_RESEND: {
    summary: 'that exchange cannot be sent again',
    todo: 'Only deliveries to a peer can be resent; pick one in the journal.',
  },
  SVC_E_OVERLOADED: {
    summary: 'the simulator refuses work past its configured limit',
    todo: 'Lower the rate, or raise the platform limits (`svc-cli platform --help`).',
  },
  SVC_E_UNKNOWN_CHANNEL: {
    summary:
      'the platform answered 404: no channel at that URL (unknown public id or a wrong random string)',
    todo: 'Copy the channel URL again from the platform; both path segments must match.',
    spec: '4.1',
  },
  SVC_E_STATUS_BODY: {
    summary: 'the status endpoint answered something other than 0 or 1',
    todo: 'The status body is the single character 0 or 1.',
    spec: '4.1',
  },
  SVC_E_CHANNEL_STATUS: {
    summary: 'the channel status endpoint answered with an unexpected HTTP status',
    todo: 'Check the channel URL; the status endpoint answers 200 or 404.',
    spec: '4.1',
  },
  SVC_E_TIMEOUT: {
    summary: 'the peer did not answer in time',
    todo: 'Check that it is running and answers within the timing of section 8.',
    spec: '8',
  },
  SVC_E_UNREACHABLE: {
    summary: 'nothing answers at that address (connection refused, reset or unknown host)',
    todo: 'Start the peer, or check the host and port.',
  },
  SVC_E_UNTRUSTED_CERT: {
    summary: "the peer's TLS certificate is not trusted (self-signed or from a private CA)",
    todo: 'Pass --ca <file> with the CA that signed it, or --insecure for a local test only.',
  },
  SVC_E_TLS: {
    summary:
      'the TLS handshake with the peer failed: plain HTTP behind an https:// URL, an expired certificate, another host name, or no answer in time',
    todo: 'Read the one line the message gives: use http:// for a plain-HTTP peer, renew the certificate, or call the peer by a name its certificate holds.',
  },
  SVC_E_PEER_UNREACHABLE: {
    summary: 'the peer svc-cli was pointed at is not running',
    todo: 'Start it (the message names the command) and check the URL and port. A peer still starting: --wait 30s waits for it. replay and chat play the peer themselves when its URL is left out; conform needs one running.',
  },
  SVC_E_HOOK_TIMEOUT: {
    summary: 'the hook receiver did not answer in time',
    todo: 'Answer within the hook timeout (section 8), or raise --timeout.',
    spec: '8',
  },
  SVC_E_HOOK_UNREACHABLE: {
    summary: 'nothing answers at the hook URL',
    todo: 'Start the receiver (`svc-cli hook-target` is one), or check the URL.',
    spec: '4.4',
  },
  SVC_E_INTERNAL: {
    summary: 'svc-cli hit a fault of its own',
    todo: 'Report the command, its output and the svc-cli version (svc-cli --version).',
  },
  SVC_E_STEP_STUCK: {
    summary: 'a replay step waits for something that can no longer happen',
    todo: 'Check the step the message names against what happened before it.',
  },
  SVC_E_OBSERVER_CHANGED_STATE: {
    summary: 'an event listener changed the chat state (checked with checkObservers)',
    todo: 'Listeners observe: move the decision into a lifecycle hook of the service (PlatformService.lifecycle).',
  },
  SVC_E_WEB_ASSETS: {
    summary: 'the built web pages are missing',
    todo: 'Run `npm run build`.',
  },
  SVC_E_DISK: {
    summary:
      'the machine could not write a file: the disk is full, over quota, read-only or failing (exit 5)',
    todo: 'Free space or write to another disk (--record, --out), then run again; the recording holds every whole record written before.',
  },
  SVC_E_FILE_LIMIT: {
    summary: 'too many open files: the process or the system ran out of file descriptors (exit 5)',
    todo: 'Raise the limit before starting svc-cli (ulimit -n 4096), or open fewer connections at once.',
  },
};
