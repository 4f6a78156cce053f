import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatBotSimListening } from '../../../src/cli/render/bot-sim-events.js';
import { bannerLineOnly, formatListening } from '../../../src/cli/render/exchange.js';
import { formatHookTargetListening } from '../../../src/cli/render/hook-events.js';

const plain = new Chalk({ level: 0 });
/** The longest loopback URL a serving command prints: a five-digit port. */
const url = 'http://127.0.0.1:65535';
const widest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

describe("the serving commands' banners", () => {
  it("listen's says the integrator URL may carry a path, as the README tours give it", () => {
    expect(formatListening({ type: 'listening', url: 'http://127.0.0.1:9000' }, plain))
      .toMatchInlineSnapshot(`
        "listening  http://127.0.0.1:9000
          give the platform this integrator URL, or that URL plus a path
          (http://127.0.0.1:9000/agent-messages); agent messages arrive as POST
          <integrator-url>/<channel_public_id>"
      `);
  });

  it('fit 80 columns, the URL alone on the first line after "listening"', () => {
    const banners = [
      formatListening({ type: 'listening', url, channel: 'a-long-channel-public-id' }, plain),
      formatHookTargetListening({ type: 'listening', url, path: '/hooks/svc' }, plain),
      formatBotSimListening(
        {
          type: 'listening',
          url,
          eventsUrl: `${url}/<token>`,
          platformUrl: 'http://127.0.0.1:65534',
          tokenUrl: `${url}/oauth/token`,
        },
        plain,
      ),
    ];
    for (const banner of banners) expect(widest(banner)).toBeLessThanOrEqual(80);
    expect(banners[0]!.split('\n')[0]).toBe(`listening  ${url}`);
    expect(banners[1]!.split('\n')[0]).toBe(`listening  ${url}`);
    expect(banners[2]).toContain(`--bot-provider-url ${url}/bot`);
  });

  it('under --quiet, are their first line: the URL, nothing to wrap', () => {
    const bot = { type: 'listening', url, eventsUrl: `${url}/<token>` } as const;
    expect(bannerLineOnly(formatBotSimListening)(bot, plain)).toBe(
      `svc bot-sim listening on ${url}`,
    );
    expect(bannerLineOnly(formatListening)({ type: 'listening', url }, plain)).toBe(
      `listening  ${url}`,
    );
    expect(bannerLineOnly(formatHookTargetListening)({ type: 'listening', url }, plain)).toBe(
      `listening  ${url}`,
    );
  });
});
