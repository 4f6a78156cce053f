/**
 * Measured in a page (passed to page.evaluate): the body's luminance and every visible text
 * whose contrast against what is behind it is under WCAG AA (4.5, 3 for large text).
 */
export interface Seen {
  background: number;
  /** texts whose contrast is under the WCAG AA minimum */
  low: Array<{ text: string; ratio: number; color: string; behind: string }>;
  checked: number;
}

export function measure(): Seen {
  const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]: number[]): number => {
    const lin = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  };
  /** the first opaque background at or above an element */
  const behind = (el: Element | null): string => {
    for (let e = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      const parts = rgb(bg);
      if (parts.length >= 3 && (parts.length === 3 || parts[3]! > 0.5)) return bg;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const low: Seen['low'] = [];
  let checked = 0;
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    const own = Array.from(el.childNodes).some(
      (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
    );
    // an empty field shows its placeholder, text like any other (the browser's own grey,
    // #757575, read at 2.4:1 on a dark field)
    const field = el as HTMLInputElement;
    const placeholder =
      (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') &&
      field.placeholder.trim() !== '' &&
      field.value === '';
    if (!own && !placeholder) continue;
    const box = (el as HTMLElement).getBoundingClientRect();
    const style = placeholder ? getComputedStyle(el, '::placeholder') : getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (style.opacity === '0') continue;
    const bgColor = behind(el);
    const bgRgb = rgb(bgColor);
    const bg = luminance(bgRgb);
    // what the eye sees: the text's colour faded by its own alpha and every opacity above it
    // (white at 0.85 on a blue read as plain white, 4.7:1, where it is 3.9:1)
    let alpha = rgb(style.color)[3] ?? 1;
    for (let e: Element | null = el; e; e = e.parentElement)
      alpha *= Number(getComputedStyle(e).opacity);
    const fg = luminance(
      rgb(style.color)
        .slice(0, 3)
        .map((v, i) => alpha * v + (1 - alpha) * (bgRgb[i] ?? 0)),
    );
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked++;
    if (ratio < (large ? 3 : 4.5))
      low.push({
        text: (placeholder ? field.placeholder : (el.textContent ?? '')).trim().slice(0, 40),
        ratio: Math.round(ratio * 100) / 100,
        color: style.color,
        behind: bgColor,
      });
  }
  return {
    background: luminance(rgb(behind(document.body))),
    low,
    checked,
  };
}
