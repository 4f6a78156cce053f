import { describe, expect, it } from 'vitest';
import { simulatorBase } from '../../../src/cli/commands/widget-run.js';

describe('widget --platform-url as a user pastes it (newcomer pass)', () => {
  it.each([
    // the console's address, as the platform banner prints it
    ['http://127.0.0.1:8800/_sim/console/', 'http://127.0.0.1:8800'],
    ['http://127.0.0.1:8800/_sim', 'http://127.0.0.1:8800'],
    ['https://sim.test/base/_sim/events', 'https://sim.test/base'],
    ['http://127.0.0.1:8800/', 'http://127.0.0.1:8800'],
    ['http://127.0.0.1:8800', 'http://127.0.0.1:8800'],
  ])('%s is the simulator at %s', (pasted, base) => {
    expect(simulatorBase(pasted)).toBe(base);
  });
});
