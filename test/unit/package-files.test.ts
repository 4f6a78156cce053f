import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ASSET_LIST_KEY,
  createPackageFiles,
  localOrShippedFixture,
  packageFiles,
  readPackageVersion,
  type AssetStore,
} from '../../src/package-files.js';

const root = new URL('../../', import.meta.url);
const version = (
  JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }
).version;

/** A stand-in for node:sea in the single binary, counting the raw reads (the copies). */
function fakeStore(files: Record<string, string>, key = 'k1'): AssetStore & { rawReads: number } {
  const assets: Record<string, string> = {
    ...files,
    [ASSET_LIST_KEY]: JSON.stringify({ key, files: Object.keys(files) }),
  };
  const asset = (name: string): string => {
    const text = assets[name];
    if (text === undefined) throw new Error(`no asset ${name}`);
    return text;
  };
  const store = {
    rawReads: 0,
    isSea: () => true,
    getAsset: (name: string) => asset(name),
    getRawAsset(name: string) {
      store.rawReads += 1;
      return new TextEncoder().encode(asset(name)).buffer;
    },
  };
  return store;
}

const notSea: AssetStore = {
  isSea: () => false,
  getAsset: () => {
    throw new Error('not a single binary');
  },
  getRawAsset: () => {
    throw new Error('not a single binary');
  },
};

describe('package files from the package folder', () => {
  const files = createPackageFiles({ root, store: notSea });

  it('reads a package file and its version, and nothing outside the package', () => {
    expect(files.embedded).toBe(false);
    expect(files.read('package.json')).toContain('"name": "svc-cli"');
    expect(readPackageVersion(files)).toBe(version);
    expect(readPackageVersion()).toBe(version); // this svc-cli's own
    expect(files.read('../package.json')).toBeUndefined();
    expect(files.read('/etc/passwd')).toBeUndefined();
    expect(files.read('fixtures/no-such-file.json')).toBeUndefined();
  });

  it('lists a folder at any depth, sorted, and gives real paths', () => {
    const listed = files.list('fixtures/payloads/');
    expect(listed).toContain('fixtures/payloads/channel/customer-text-minimal.valid.json');
    expect(listed).toEqual([...listed].sort());
    expect(files.list('no-such-folder')).toEqual([]);
    expect(files.folderOf('fixtures/conversations')).toBe(
      join(packageFiles().pathOf('fixtures')!, 'conversations'),
    );
    expect(files.pathOf('../x')).toBeUndefined();
  });
});

describe('package files in the single binary (SEA assets)', () => {
  let copies: string | undefined;
  afterEach(() => {
    if (copies) rmSync(copies, { recursive: true, force: true });
  });
  const sample = {
    'package.json': '{"version":"9.8.7"}',
    'fixtures/conversations/a.json': '{"version":1}',
    'fixtures/bots/b.json': '{"rules":[]}',
  };

  it('reads listed assets only, lists by folder, and has no paths', () => {
    const files = createPackageFiles({ root, store: fakeStore(sample) });
    expect(files.embedded).toBe(true);
    expect(readPackageVersion(files)).toBe('9.8.7');
    expect(files.read('fixtures/bots/b.json')).toBe('{"rules":[]}');
    expect(files.read('fixtures/bots/../../package.json')).toBeUndefined();
    expect(files.read(ASSET_LIST_KEY)).toBeUndefined();
    expect(files.list('fixtures')).toEqual([
      'fixtures/bots/b.json',
      'fixtures/conversations/a.json',
    ]);
    expect(files.pathOf('package.json')).toBeUndefined();
  });

  it('copies every asset once into a folder named by the build, for real paths', () => {
    copies = mkdtempSync(join(tmpdir(), 'svc-package-files-'));
    const store = fakeStore(sample);
    const files = createPackageFiles({ root, store, copies });
    const folder = files.folderOf('fixtures/conversations');
    expect(folder).toBe(join(copies, 'files-k1', 'fixtures', 'conversations'));
    expect(readFileSync(join(folder, 'a.json'), 'utf8')).toBe('{"version":1}');
    // a conversation's relative bot script is beside it, as in the package
    expect(readFileSync(join(folder, '../bots/b.json'), 'utf8')).toBe('{"rules":[]}');
    expect(store.rawReads).toBe(3);
    // a second start (any process) takes the copy that is there
    createPackageFiles({ root, store, copies }).folderOf('fixtures');
    expect(store.rawReads).toBe(3);
    // a cleaner of old temporary files took one: the copy is made again
    rmSync(join(folder, 'a.json'));
    createPackageFiles({ root, store, copies }).folderOf('fixtures');
    expect(store.rawReads).toBe(6);
    expect(readFileSync(join(folder, 'a.json'), 'utf8')).toBe('{"version":1}');
  });

  it('refuses a folder others can write, as an error with a code', () => {
    copies = mkdtempSync(join(tmpdir(), 'svc-package-files-'));
    const shared = join(copies, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const files = createPackageFiles({ root, store: fakeStore(sample), copies: shared });
    expect(() => files.folderOf('fixtures')).toThrow(
      expect.objectContaining({ code: 'SVC_E_WRITE' }),
    );
  });
});

describe('fixtures/... as the examples name it', () => {
  it("is the working folder's file, else the one shipped in the package", () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-fixture-'));
    const shipped = localOrShippedFixture(empty, 'fixtures/hooks/crm-reply.json');
    expect(shipped).toBe(packageFiles().folderOf('fixtures/hooks/crm-reply.json'));
    expect(existsSync(shipped)).toBe(true);
    // a fixture of the user's own wins
    mkdirSync(join(empty, 'fixtures', 'hooks'), { recursive: true });
    writeFileSync(join(empty, 'fixtures', 'hooks', 'crm-reply.json'), '{}');
    expect(localOrShippedFixture(empty, './fixtures/hooks/crm-reply.json')).toBe(
      join(empty, 'fixtures', 'hooks', 'crm-reply.json'),
    );
    // a glob, by the folder before its first wildcard: shipped when the project has none
    expect(localOrShippedFixture(empty, 'fixtures/payloads/**/*.valid.json')).toBe(
      `${packageFiles().folderOf('fixtures/payloads')}/**/*.valid.json`,
    );
    expect(localOrShippedFixture(empty, 'fixtures/hooks/*.json')).toBe(
      join(empty, 'fixtures/hooks/*.json'),
    );
    // other paths, and fixtures shipped nowhere, stay the caller's to refuse
    expect(localOrShippedFixture(empty, 'crm.json')).toBe(join(empty, 'crm.json'));
    expect(localOrShippedFixture(empty, 'fixtures/nope.json')).toBe(
      join(empty, 'fixtures/nope.json'),
    );
    expect(localOrShippedFixture(empty, 'fixtures/../package.json')).toBe(
      join(empty, 'package.json'),
    );
  });
});
