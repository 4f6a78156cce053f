/**
 * The files of the svc-cli package that commands read at run time: package.json (the
 * version), the built browser files (dist/web, dist/widget/svc-widget.js), the shipped
 * fixtures and the JSON Schemas. Every such read goes through here, so it works from the
 * package's folder (npm, a clone, the tests) and from the single binary
 * (`npm run build:binary`), which has no package folder: there the files are assets built into
 * the executable (Node's single executable applications, `node:sea`).
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import sea from 'node:sea';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SvcError, systemReason } from './errors.js';

/**
 * The asset that lists every other one (Node 20's `node:sea` cannot list its assets), written
 * by scripts/build-binary.mjs: the package-relative paths and a hash of their contents.
 */
export const ASSET_LIST_KEY = 'svc-package-files.json';

export interface AssetList {
  /** changes with any file's content: names the folder the files are copied to */
  key: string;
  files: string[];
}

/** What is read of `node:sea` (a stand-in in tests). */
export interface AssetStore {
  isSea(): boolean;
  getAsset(key: string, encoding: 'utf8'): string;
  getRawAsset(key: string): ArrayBuffer | string;
}

export interface PackageFiles {
  /** true in the single binary: the files are assets, not files on disk */
  readonly embedded: boolean;
  /** The text of a package file (`fixtures/payloads/x.json`), undefined when there is none. */
  read(file: string): string | undefined;
  /** The package-relative paths of the files under `dir`, at any depth, sorted. */
  list(dir: string): string[];
  /** Where a package file is on disk; undefined in the single binary, which has no folder. */
  pathOf(file: string): string | undefined;
  /**
   * A folder on disk holding the package's `dir`, for readers of real paths (a conversation
   * names a bot script beside it): the package's own, or in the single binary a copy of its
   * files, written once per build into a folder only this user can write.
   */
  folderOf(dir: string): string;
}

/** Package-relative paths only: no `..`, no absolute path, no empty segment. */
const isPackagePath = (file: string): boolean =>
  file.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

const trimSlash = (dir: string): string => dir.replace(/\/+$/, '');

/**
 * Package files read from `store` when it is the single binary's, else from `root`.
 * @example createPackageFiles({ root: new URL('file:///opt/svc-cli/') }).read('package.json')
 */
export function createPackageFiles({
  root,
  store = sea,
  copies = join(tmpdir(), `svc-cli-${process.getuid?.() ?? 'user'}`),
}: {
  /** the package folder, as a URL ending in `/` */
  root: URL;
  store?: AssetStore;
  /** where the single binary copies its files for folderOf (a folder of this user's own) */
  copies?: string;
}): PackageFiles {
  if (store.isSea()) {
    let list: AssetList | undefined;
    const assets = (): AssetList =>
      (list ??= JSON.parse(store.getAsset(ASSET_LIST_KEY, 'utf8')) as AssetList);
    const has = (file: string): boolean => isPackagePath(file) && assets().files.includes(file);
    const listed = (dir: string): string[] =>
      assets()
        .files.filter((file) => file.startsWith(`${trimSlash(dir)}/`))
        .sort();
    return {
      embedded: true,
      read: (file) => (has(file) ? store.getAsset(file, 'utf8') : undefined),
      list: listed,
      pathOf: () => undefined,
      folderOf(dir) {
        const folder = copyAssets(store, assets(), copies);
        return join(folder, ...trimSlash(dir).split('/'));
      },
    };
  }
  const pathOf = (file: string): string => fileURLToPath(new URL(file, root));
  const walk = (dir: string): string[] => {
    let entries;
    try {
      entries = readdirSync(pathOf(dir), { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.isFile() ? [`${dir}/${e.name}`] : [],
    );
  };
  return {
    embedded: false,
    read(file) {
      if (!isPackagePath(file)) return undefined;
      try {
        return readFileSync(pathOf(file), 'utf8');
      } catch {
        return undefined;
      }
    },
    list: (dir) => walk(trimSlash(dir)).sort(),
    pathOf: (file) => (isPackagePath(file) ? pathOf(file) : undefined),
    folderOf: (dir) => pathOf(trimSlash(dir)),
  };
}

/**
 * Copies every asset to `<copies>/files-<key>` unless a copy is there, and returns that folder.
 * The copy is written whole under another name and renamed (a concurrent start sees all of it
 * or none); files read from there are run as this user's data, so only a folder of this
 * user's own that no one else can write to is used (the shared temporary folder is anyone's).
 */
function copyAssets(store: AssetStore, list: AssetList, copies: string): string {
  const folder = join(copies, `files-${list.key}`);
  const partial = `${folder}.${process.pid}.tmp`;
  try {
    mkdirSync(copies, { recursive: true, mode: 0o700 });
    const stat = lstatSync(copies);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || stat.mode & 0o022)
      throw Object.assign(new Error('the folder is not this user’s own'), { code: 'EACCES' });
    // a cleaner of old temporary files may have taken some of them: copied again then
    const whole = (): boolean => list.files.every((file) => existsSync(join(folder, file)));
    if (lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
      if (whole()) return folder;
      rmSync(folder, { recursive: true, force: true });
    }
    for (const file of list.files) {
      const target = join(partial, ...file.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, new Uint8Array(toArrayBuffer(store.getRawAsset(file))));
    }
    try {
      renameSync(partial, folder);
    } catch (error) {
      // another start copied them first: theirs is as good
      if (!whole()) throw error;
      rmSync(partial, { recursive: true, force: true });
    }
    return folder;
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw new SvcError(
      'SVC_E_WRITE',
      `Could not copy svc-cli's own files to ${folder}: ${systemReason(error)}.`,
      'Point TMPDIR at a folder you can write, or name the files to use.',
    );
  }
}

const toArrayBuffer = (asset: ArrayBuffer | string): ArrayBuffer =>
  typeof asset === 'string' ? new TextEncoder().encode(asset).buffer : asset;

let own: PackageFiles | undefined;

/** This svc-cli's files (src/ and dist/ are both one folder below the package root). */
export function packageFiles(): PackageFiles {
  own ??= createPackageFiles({ root: new URL('../', import.meta.url) });
  return own;
}

/** The version in this svc-cli's package.json, `0.0.0` when it cannot be read. */
export function readPackageVersion(files: PackageFiles = packageFiles()): string {
  try {
    const pkg = JSON.parse(files.read('package.json') ?? '{}') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * `fixtures/...` as the docs' and the help's examples name it: the working folder's file,
 * else the one shipped in the package (an installed svc-cli, the single binary), so
 * `validate fixtures/payloads` and `hook-target --reply chat_accepted=fixtures/hooks/crm-reply.json`
 * run as written outside a clone; a glob goes by the folder before its first wildcard
 * (`fixtures/payloads` in the docs' `**` example). Any other path, or one found nowhere, is
 * returned as given (resolved against `cwd`), for the caller's own "no such file" error.
 * @example localOrShippedFixture('/tmp', 'fixtures/payloads') // '/…/svc-cli/fixtures/payloads'
 */
export function localOrShippedFixture(
  cwd: string,
  given: string,
  files: PackageFiles = packageFiles(),
): string {
  const local = join(cwd, given);
  const relative = given.replace(/^\.\//, '');
  if (given.startsWith('/') || existsSync(local) || !relative.startsWith('fixtures/')) {
    return given.startsWith('/') ? given : local;
  }
  if (!relative.split('/').every((part) => part !== '' && part !== '.' && part !== '..'))
    return local;
  const parts = relative.split('/').slice(1);
  // a glob (a `**` or `*` in a part): the folder before its first wildcard decides
  const wild = parts.findIndex((part) => /[*?[\]{}]/.test(part));
  if (wild !== -1) {
    if (existsSync(join(cwd, 'fixtures', ...parts.slice(0, wild)))) return local;
    const base = join(files.folderOf('fixtures'), ...parts.slice(0, wild));
    return existsSync(base) ? [base, ...parts.slice(wild)].join('/') : local;
  }
  const shipped = join(files.folderOf('fixtures'), ...parts);
  return existsSync(shipped) ? shipped : local;
}
