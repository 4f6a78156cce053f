/**
 * The widget demo page: it hands the profile to the page's double (`widget --profile docs`), and
 * answers a path it does not serve with where the page and the console are.
 */
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

describe('a path the demo server does not serve', () => {
  it('gets a 404 naming the page and the agent console, not a bare "not found"', async () => {
    const consoleUrl = 'http://127.0.0.1:8800/_sim/console/';
    const demo = await startDemoServer({
      platformUrl: 'http://127.0.0.1:8800',
      consoleUrl,
      port: 0,
    });
    closers.push(() => demo.close(0));
    const res = await fetch(new URL('/_sim/console/', demo.url));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(
      `not found: this server serves only the demo page, at /; the agent console is at ${consoleUrl}\n`,
    );
  });
});
