/**
 * An HTML report names how it was made under its title: the command line as run (quoted to
 * paste, its secrets hidden), the svc-cli version and when it was written; `report` titles the
 * page with the recording's base name, not the local path it was read from.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLine } from '../../../src/cli/render/report-made.js';
import { readPackageVersion } from '../../../src/package-files.js';
import { replayConversation } from '../../../src/conversation/runner.js';
import { loadConversation } from '../../../src/conversation/load.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';
import { repoRoot } from '../../helpers/run-cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('commandLine', () => {
  it('quotes what a shell would split or expand and leaves the rest bare', () => {
    expect(
      commandLine(['replay', 'my fixtures/a.yaml', "it's", '--mutant', 'skip-third-attempt']),
    ).toBe(`replay 'my fixtures/a.yaml' 'it'\\''s' --mutant skip-third-attempt`);
    expect(commandLine(['--time-scale', '0.2', 'load', '--rate', '200/s', '--a=b'])).toBe(
      '--time-scale 0.2 load --rate 200/s --a=b',
    );
  });

  it('hides tokens and the channel URL’s random string unless --show-secrets', () => {
    const argv = [
      'conform',
      'platform',
      '--channel-url',
      'http://127.0.0.1:8801/dev-only-secret-1234/shop',
      '--control-token',
      'ct-1',
      '--token=bt-2',
      '--random-string',
      'rs-3',
    ];
    const line = commandLine(argv);
    expect(line).toBe(
      "conform platform --channel-url 'http://127.0.0.1:8801/***/shop' --control-token '***' '--token=***' --random-string '***'",
    );
    expect(commandLine([...argv, '--show-secrets'])).toContain('dev-only-secret-1234');
  });
});

describe('the report header', () => {
  it('names the command line, the version and the time; the title the recording’s base name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-report-made-'));
    dirs.push(dir);
    const recordFile = join(dir, 'session.ndjson');
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    await replayConversation({ file, conversation: await loadConversation(file), recordFile });
    const t = createTestContext({ cwd: dir });
    const before = Date.now();
    expect(await runInProcess(t, ['report', recordFile, '-o', 'my report.html'])).toBe(0);
    const html = readFileSync(join(dir, 'my report.html'), 'utf8');
    expect(html).toContain('<title>svc-cli report: session.ndjson</title>');
    expect(html).toContain('<h1>svc-cli report: session.ndjson</h1>');
    expect(html).not.toContain(`report: ${dir}`);
    const made = html.match(
      /<p class="made"><code>(.*?)<\/code><span>svc-cli (.*?)<\/span><span>written <time datetime="(.*?)">/,
    );
    // each word of the command a span of its own (kept on one line), the text unchanged
    expect(made?.[1]?.replace(/<[^>]+>/g, '')).toBe(
      `svc-cli report ${recordFile} -o &#39;my report.html&#39;`,
    );
    expect(made?.[2]).toBe(readPackageVersion());
    const at = Date.parse(made?.[3] ?? '');
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
