import type { Page } from 'playwright-core';

/** Where a lane header's text is drawn, and whether its box cuts it off. */
export interface LaneHead {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** the text is wider than a box that hides what overflows (an ellipsis or a cut) */
  clipped: boolean;
}

/**
 * The lane headers of the first swimlane timeline under `scope`, measured by their text (a
 * Range), not their boxes: a header may draw past its box, as long as it reads whole.
 */
export function measureLaneHeads(page: Page, scope: string): Promise<LaneHead[]> {
  return page.evaluate((sel) => {
    const spans = Array.from(document.querySelectorAll(`${sel} .lanes .head span`));
    return spans.map((span) => {
      const range = document.createRange();
      range.selectNodeContents(span);
      const r = range.getBoundingClientRect();
      const style = getComputedStyle(span);
      const cuts = style.overflowX !== 'visible'; // an ellipsis too needs a hidden overflow
      return {
        text: span.textContent ?? '',
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        clipped: cuts && span.scrollWidth > span.clientWidth,
      };
    });
  }, scope);
}

/** The pairs of headers whose texts touch: on one line, closer than `gap` px (a space or less). */
export function touchingHeads(heads: readonly LaneHead[], gap = 8): string[] {
  const touching: string[] = [];
  for (const [i, a] of heads.entries()) {
    for (const b of heads.slice(i + 1)) {
      const sameLine = a.top < b.bottom && b.top < a.bottom;
      const apart = a.right + gap <= b.left || b.right + gap <= a.left;
      if (sameLine && !apart) touching.push(`${a.text}|${b.text}`);
    }
  }
  return touching;
}
