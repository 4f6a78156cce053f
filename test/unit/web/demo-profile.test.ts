/** The widget demo page hands the profile to the page's double (`widget --profile docs`). */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../../src/web/demo-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function page(profile?: 'spec' | 'docs'): Promise<string> {
  const demo = await startDemoServer({
    platformUrl: 'http://127.0.0.1:8800',
    port: 0,
    ...(profile ? { profile } : {}),
  });
  closers.push(() => demo.close(0));
  return (await fetch(demo.url)).text();
}

describe('the widget demo page', () => {
  it('loads the double with data-profile="docs" under the docs profile, "spec" otherwise', async () => {
    expect(await page('docs')).toMatch(/<script[^>]*src="\/svc-widget.js"[^>]*data-profile="docs"/);
    expect(await page()).toMatch(/<script[^>]*src="\/svc-widget.js"[^>]*data-profile="spec"/);
  });
});
