/**
 * Coverage figures: hits per item, grouped by interface and category, with a percentage per
 * interface and overall. The widget interface counts only when the run recorded widget
 * traffic: its results and callbacks happen on a page and never cross a recording.
 */
import { isPushRecord } from '../journal/record.js';
import {
  COVERAGE_CATEGORIES,
  COVERAGE_INTERFACES,
  INTERFACE_NAMES,
  coverageItems,
  type CoverageCategory,
  type CoverageInterface,
  type CoverageItem,
} from './catalogue.js';
import type { ExchangeRecord } from '../journal/record.js';
import { itemsOfRecord } from './match.js';

export interface CoverageFigure {
  covered: number;
  total: number;
  /** covered / total x 100, one decimal; 0 when nothing is counted */
  percent: number;
}

export interface CoverageGroup extends CoverageFigure {
  iface: CoverageInterface;
  name: string;
  /** false: no exchange of this interface was recorded (the widget): left out of the overall figure */
  counted: boolean;
  categories: Array<CoverageFigure & { category: CoverageCategory }>;
}

export interface CoverageReport {
  /** exchanges read (control API requests included) */
  records: number;
  groups: CoverageGroup[];
  overall: CoverageFigure;
  /** every item with how many exchanges hit it */
  items: Array<CoverageItem & { hits: number }>;
}

const figure = (covered: number, total: number): CoverageFigure => ({
  covered,
  total,
  percent: total === 0 ? 0 : Math.floor((covered / total) * 1000) / 10,
});

/**
 * Whether a figure is below `min` percent, on the exact ratio: 273/701 is 38.944%, not below
 * 38.94 though its one-decimal `percent` reads 38.9. Integer arithmetic on the covered side,
 * so no rounding moves the gate.
 * @example isBelowMin({ covered: 273, total: 701, percent: 38.9 }, 38.94) // false
 */
export function isBelowMin(figure: CoverageFigure, min: number): boolean {
  // nothing counted reads 0%: below any positive minimum
  if (figure.total === 0) return min > 0;
  return figure.covered * 100 < min * figure.total;
}

/**
 * The figure as a percentage with at least `decimals` decimals (at least one), rounded down
 * so it never reads above the ratio: beside a `--min` with as many decimals, a figure below
 * it never prints equal to it or above it.
 * @example exactPercent({ covered: 273, total: 701, percent: 38.9 }, 3) // '38.944'
 */
export function exactPercent(figure: CoverageFigure, decimals: number): string {
  const places = Math.max(1, decimals);
  if (figure.total === 0) return (0).toFixed(places);
  const scale = 10 ** places;
  return (Math.floor((figure.covered * 100 * scale) / figure.total) / scale).toFixed(places);
}

/** Counts what records exercise; `report()` at any point gives the figures so far. */
export interface CoverageTally {
  add(record: ExchangeRecord): void;
  /** `only`: the interfaces the report holds (a hook receiver's D); default every one */
  report(only?: ReadonlySet<CoverageInterface>): CoverageReport;
}

/**
 * A tally fed one record at a time, so a recording of any size streams through it.
 * @example const tally = createCoverageTally(); for (const r of records) tally.add(r); tally.report().overall.percent
 */
export function createCoverageTally(): CoverageTally {
  const hits = new Map<string, number>();
  const ifaces = new Set<string>();
  let records = 0;
  return {
    add(record) {
      records++;
      // an event pushed to a page is none of the page's own traffic: a page that only
      // listened does not put the widget interface in the figures
      if (!isPushRecord(record)) ifaces.add(record.iface);
      for (const id of itemsOfRecord(record)) hits.set(id, (hits.get(id) ?? 0) + 1);
    },
    report(only) {
      const items = coverageItems()
        .filter((item) => !only || only.has(item.iface))
        .map((item) => ({ ...item, hits: hits.get(item.id) ?? 0 }));
      const ifacesShown = COVERAGE_INTERFACES.filter((iface) => !only || only.has(iface));
      const groups: CoverageGroup[] = ifacesShown.map((iface) => {
        const mine = items.filter((i) => i.iface === iface);
        const categories = COVERAGE_CATEGORIES.flatMap((category) => {
          const inCategory = mine.filter((i) => i.category === category);
          if (inCategory.length === 0) return [];
          const covered = inCategory.filter((i) => i.hits > 0).length;
          return [{ category, ...figure(covered, inCategory.length) }];
        });
        return {
          iface,
          name: INTERFACE_NAMES[iface],
          // asked for by name, the widget counts even when nothing of it was recorded
          counted: iface !== 'C' || ifaces.has('widget') || only !== undefined,
          ...figure(mine.filter((i) => i.hits > 0).length, mine.length),
          categories,
        };
      });
      const counted = groups.filter((g) => g.counted);
      const overall = figure(
        counted.reduce((n, g) => n + g.covered, 0),
        counted.reduce((n, g) => n + g.total, 0),
      );
      return { records, groups, overall, items };
    },
  };
}
