/** Kept for the commands that import it from here; progress.ts holds the implementation. */
export { withSpinner } from './progress.js';
