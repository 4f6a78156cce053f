#!/usr/bin/env node
// Writes docs/CONTRACT.md, the contract reference, from the code in dist/ (the same generator
// as `svc-cli schema --format markdown`). Run by `npm run build`; a test fails when the
// committed file is stale.
import { writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { contractMarkdown } = await import(new URL('dist/reference/render.js', root).href);
writeFileSync(new URL('docs/CONTRACT.md', root), contractMarkdown());
