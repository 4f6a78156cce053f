/** Contract coverage of recorded runs (`svc-cli coverage`). */
export {
  COVERAGE_CATEGORIES,
  COVERAGE_INTERFACES,
  INTERFACE_NAMES,
  coverageItems,
  familyOf,
  type CoverageCategory,
  type CoverageInterface,
  type CoverageItem,
} from './catalogue.js';
export { itemsOfRecord } from './match.js';
export { readRecords } from './read.js';
export {
  createCoverageTally,
  exactPercent,
  isBelowMin,
  type CoverageFigure,
  type CoverageGroup,
  type CoverageReport,
  type CoverageTally,
} from './report.js';
