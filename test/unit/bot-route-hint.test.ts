/** The clause under a bot's 404: the path the platform posted to, the token masked (spec 4.3). */
import { describe, expect, it } from 'vitest';
import { botRouteHint } from '../../src/http/trailing-slash.js';

describe('botRouteHint', () => {
  it('shows the path with the token masked', () => {
    expect(botRouteHint(404, 'http://127.0.0.1:9/bot/t0k')).toContain('(here /bot/<token>)');
  });

  it('says the token sits at the root when the provider URL has no path', () => {
    // "(here /<token>)" alone repeated the rule before it
    expect(botRouteHint(404, 'http://127.0.0.1:9/t0k')).toContain(
      '(here /<token> at the root: the URL has no path of its own)',
    );
  });

  it('says nothing but of a 404', () => {
    expect(botRouteHint(500, 'http://127.0.0.1:9/t0k')).toBeUndefined();
  });
});
