import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatListening } from '../../../src/cli/render/exchange.js';

const plain = new Chalk({ level: 0 });

describe("listen's banner", () => {
  it('says the integrator URL may carry a path, as the README tours give it', () => {
    expect(
      formatListening({ type: 'listening', url: 'http://127.0.0.1:9000' }, plain),
    ).toMatchInlineSnapshot(
      `"listening  http://127.0.0.1:9000  give the platform this integrator URL, or that URL plus a path (http://127.0.0.1:9000/agent-messages); agent messages arrive as POST <that URL>/<channel_public_id>"`,
    );
  });
});
