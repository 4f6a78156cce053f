import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isValidPhone } from '../../src/widget/checks.js';
import { repoRoot } from '../helpers/run-cli.js';

describe("the widget demo's call-back field", () => {
  it('reads as a label with a valid example, and an empty field is not sent', () => {
    const html = readFileSync(join(repoRoot, 'src/web/demo/index.html'), 'utf8');
    const form = /<form id="call-form">[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    const input = /<input\s+name="phone"[^>]*>/.exec(form)?.[0] ?? '';
    expect(input).toMatch(/\brequired\b/);
    const placeholder = /placeholder="([^"]*)"/.exec(input)?.[1] ?? '';
    expect(placeholder).toMatch(/^phone, e\.g\. /);
    expect(isValidPhone(placeholder.replace(/^phone, e\.g\. /, ''))).toBe(true);
  });
});
