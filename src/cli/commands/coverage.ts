import { defineCommand } from './spec.js';
import { coverageOptions } from './coverage-options.js';

/** `svc-cli coverage <recordings...>`: what a run exercised of the contract. */
export const coverageCommand = defineCommand({
  name: 'coverage',
  description:
    'contract coverage of a recorded run: which kinds, fields, forms, statuses, timing paths and hook replies it exercised, per interface',
  arguments: [
    {
      name: 'recordings',
      variadic: true,
      description: 'recordings (--record NDJSON or .har) or journals; - for stdin',
    },
  ],
  options: coverageOptions,
  helpAfter: `
The items come from the contract itself (every payload kind, each kind's optional fields,
closed value sets and fields that arrive in two forms, the statuses of every endpoint, the
delivery policies), so a new part of the contract is counted on the next run. The widget
counts only when widget traffic was recorded. docs/coverage.md explains each category.

Examples:
  $ svc-cli replay --record run.ndjson && svc-cli coverage run.ndjson
  $ svc-cli platform --record session.ndjson     # your tests run against it, then:
  $ svc-cli coverage session.ndjson --min 80 --junit coverage.xml
  $ svc-cli coverage session.ndjson --uncovered
  $ svc-cli coverage session.ndjson --interface hooks --min 60   # a hook receiver's gate
  $ svc-cli --json coverage a.ndjson b.har`,
  run: {
    path: 'coverage-run',
    sources: () => import('./coverage-run.js'),
    call: (m, ctx, { args, flags }) => m.runCoverage(ctx, args.recordings, flags),
  },
});
