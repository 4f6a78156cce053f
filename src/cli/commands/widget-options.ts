/** The option table of widget (table.ts). */
import {
  ALLOWED_HOST_OPTION,
  CONTROL_ACCESS_OPTIONS,
  HOOK_URL_OPTION,
  PROFILE_OPTION,
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  TLS_OPTIONS,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { AGENTS_OPTION } from './platform-options.js';

export const widgetOptions = defineOptions('widget', [
  { ...SERVING_OPTIONS[0], description: 'port of the demo page (0 = any free port)' },
  { ...SERVING_OPTIONS[1], description: 'address to bind both servers' },
  ALLOWED_HOST_OPTION,
  ...CONTROL_ACCESS_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'platformUrl',
    flag: '--platform-url <url>',
    type: 'url',
    env: 'SVC_PLATFORM_URL',
    description: 'use a running simulator (svc-cli platform --web) instead of starting one',
  },
  {
    ...PROFILE_OPTION,
    description:
      "what the simulator and the page's double follow beyond the spec: spec, docs (the page's double then has setClientAttributes and the JS API limits) or a profile file",
  },
  {
    key: 'platformWait',
    flag: '--platform-wait <time>',
    type: 'int',
    min: 0,
    max: 600,
    default: 10,
    unit: 's',
    duration: true,
    description:
      'how long to wait for --platform-url to listen (a simulator started in the same line): seconds, or with a unit (2m); 0: not at all',
  },
  {
    key: 'platformPort',
    flag: '--platform-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    default: 0,
    description: 'port of the simulator started here (0 = any)',
  },
  { ...AGENTS_OPTION, description: 'agents online or offline at start (chatMode())' },
  { ...HOOK_URL_OPTION, description: 'the started simulator sends event hooks here (spec 6.2)' },
  RECORD_OPTIONS[0],
] as const satisfies readonly OptionSpec[]);
