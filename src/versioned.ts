/**
 * What a versioned on-disk file (a conversation fixture, the config file, a bot script, a
 * profile) is not, said in its owner's words: a JSON array is no fixture, a missing "version"
 * is added, and only a newer version than this svc-cli reads asks for an upgrade.
 */

/** The problem (after "Could not use <file>: ") and what to do about it. */
export interface VersionProblem {
  /** 'shape': not a JSON object at all (the loader's format error); else its version */
  about: 'shape' | 'version';
  problem: string;
  hint: string;
}

/** How the file's kind is described: "a conversation fixture is one JSON object with …". */
export interface VersionedKind {
  /** e.g. 'a conversation fixture is one JSON object with "version", "name" and "steps"' */
  shape: string;
  /** where a good one is seen, e.g. 'svc-cli init writes one' */
  example: string;
}

const typeName = (json: unknown): string =>
  Array.isArray(json) ? 'a JSON array' : json === null ? 'JSON null' : `a JSON ${typeof json}`;

/**
 * Undefined when `json` is an object with `"version": supported`; else what is wrong.
 * @example versionProblem([], 1, kind)?.problem // 'it is a JSON array; a conversation fixture is …'
 * @example versionProblem({}, 1, kind)?.problem // 'it has no "version"'
 */
export function versionProblem(
  json: unknown,
  supported: number,
  kind: VersionedKind,
): VersionProblem | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return {
      about: 'shape',
      problem: `it is ${typeName(json)}; ${kind.shape}`,
      hint: `${capital(kind.example)}.`,
    };
  const version = (json as { version?: unknown }).version;
  if (version === supported) return undefined;
  if (version === undefined)
    return {
      about: 'version',
      problem: 'it has no "version"',
      hint: `Add "version": ${supported}. ${capital(kind.example)}.`,
    };
  if (typeof version === 'number' && Number.isInteger(version) && version > supported)
    return {
      about: 'version',
      problem: `"version" is ${version}; this svc-cli reads version ${supported}`,
      hint: `Upgrade svc-cli to read version ${version}, or write version ${supported}.`,
    };
  return {
    about: 'version',
    problem: `"version" is ${JSON.stringify(version)}; this svc-cli reads version ${supported}`,
    hint: `Set "version": ${supported} (a number).`,
  };
}

// a command name keeps its case: "svc-cli init writes one."
const capital = (text: string): string =>
  text.startsWith('svc-cli') ? text : text.charAt(0).toUpperCase() + text.slice(1);
