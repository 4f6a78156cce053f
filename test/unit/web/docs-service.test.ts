import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { KINDS } from '../../../src/contract/registry.js';
import { createPlatform } from '../../../src/platform/index.js';
import { sectionIds } from '../../../src/reference/render.js';
import { createDocsService } from '../../../src/web/docs-service.js';

describe('GET /_sim/docs', () => {
  it('serves the contract as one page: every section by its number, every kind, a filter', async () => {
    const platform = createPlatform({
      clock: createVirtualClock(),
      services: [createDocsService()],
    });
    const response = await platform.core.request('/_sim/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    for (const id of sectionIds()) expect(html).toContain(`id="spec-${id}"`);
    for (const kind of KINDS.keys()) expect(html).toContain(`id="kind-${kind}"`);
    expect(html).toContain('id="filter"');
    expect(html).not.toMatch(/<script[^>]*src=/);
  });
});
