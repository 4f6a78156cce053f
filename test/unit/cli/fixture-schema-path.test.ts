/**
 * `record to-fixture` writes a `$schema` that resolves wherever the fixture is used: the
 * installed package's schema, this tree's own, or none; never a path into the checkout that
 * ran it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaPathFor } from '../../../src/cli/commands/record-run.js';
import { repoRoot } from '../../helpers/run-cli.js';

describe('the $schema of a converted recording', () => {
  it('a project with svc-cli installed: the package schema in its own node_modules', () => {
    const project = mkdtempSync(join(tmpdir(), 'svc-schema-'));
    const schemas = join(project, 'node_modules', 'svc-cli', 'schemas');
    mkdirSync(schemas, { recursive: true });
    writeFileSync(join(schemas, 'conversation.schema.json'), '{}');
    expect(schemaPathFor(join(project, 'test', 'fixtures', 'a.json'), project)).toBe(
      '../../node_modules/svc-cli/schemas/conversation.schema.json',
    );
    expect(schemaPathFor(undefined, project)).toBeNull(); // printed: where it lands is unknown
  });

  it('anywhere else outside this tree: no $schema (no path into another checkout)', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'svc-schema-'));
    expect(schemaPathFor(join(elsewhere, 'fixtures', 'a.json'), elsewhere)).toBeNull();
    expect(schemaPathFor(undefined, elsewhere)).toBeNull();
  });

  it("this tree's own fixtures keep the path to its schemas folder", () => {
    expect(schemaPathFor(join(repoRoot, 'fixtures', 'conversations', 'a.json'), repoRoot)).toBe(
      '../../schemas/conversation.schema.json',
    );
    expect(schemaPathFor(undefined, repoRoot)).toBe('../../schemas/conversation.schema.json');
  });
});
