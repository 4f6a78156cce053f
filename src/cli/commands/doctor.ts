import { defineCommand } from './spec.js';
import { doctorOptions } from './doctor-options.js';

/** `doctor`: Node version, config file, reachability of the configured URLs. */
export const doctorCommand = defineCommand({
  name: 'doctor',
  description: 'check Node, the config file and that the configured URLs answer',
  options: doctorOptions,
  helpAfter: `
Checks: Node >= 20.19; svc.config.json is valid (unknown keys are warnings, with the
closest known key); the channel status URL answers 0 or 1; the integrator, bot provider,
hook and widget URLs answer HTTP at all (any status counts: it is a reachability check).
Examples:
  $ svc-cli doctor
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli doctor --timeout 500
  $ svc-cli --json doctor`,
  run: {
    path: 'doctor-run',
    sources: () => import('./doctor-run.js'),
    call: (m, ctx, { flags }) => m.runDoctor(ctx, flags),
  },
});
