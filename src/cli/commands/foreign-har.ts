import type { PlaceForeignEntry } from '../../journal/har-read.js';

/**
 * The placer of a HAR svc-cli did not write, for trace and report (`readTrace`'s
 * `placeForeign`): imported when the file is a HAR, so an NDJSON trace loads no schema.
 * @example await readTrace({ file, onConversation, placeForeign: loadForeignPlacer });
 */
export async function loadForeignPlacer(): Promise<PlaceForeignEntry> {
  return (await import('../../conversation/record/har-foreign.js')).placeForeignEntry;
}
