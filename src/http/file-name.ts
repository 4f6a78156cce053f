/**
 * A media file's default name: the last segment of its URL's path, percent-decoded where the
 * escapes are well formed (as typed otherwise); undefined when the path ends in `/`. Never
 * throws: the consoles parse what a person typed with it.
 * @example fileNameOf('https://cdn.example/docs/terms%20v2.pdf') // 'terms v2.pdf'
 */
export function fileNameOf(url: string): string | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: its last segment all the same
  }
  const segment = path.split('/').pop();
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
