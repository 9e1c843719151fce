/** Layout checks in the page: words cut inside buttons, things running past the viewport's edge. */
import type { Page } from '@playwright/test';

export interface Overflow {
  what: string;
  text: string;
  by: number;
}

/**
 * Every visible button-like control whose content is wider than its box (scrollWidth > clientWidth),
 * every tab row that has to scroll sideways, and every visible element that reaches past the right or
 * left edge of the viewport (unless an ancestor clips or scrolls it on purpose), plus the page's own
 * horizontal overflow.
 */
export function layoutOverflows(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const out: { what: string; text: string; by: number }[] = [];
    const label = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls =
        typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}`;
    };
    const text = (el: Element) => (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) return false;
      const cs = getComputedStyle(el);
      return (
        cs.visibility !== 'hidden' &&
        cs.display !== 'none' &&
        (el as HTMLElement).checkVisibility?.({ opacityProperty: true } as never) !== false
      );
    };
    const clippedByAncestor = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'hidden' || o === 'auto' || o === 'scroll' || o === 'clip') return true;
      }
      return false;
    };
    const vw = document.documentElement.clientWidth;
    const page = document.documentElement.scrollWidth - vw;
    if (page > 0) out.push({ what: 'document', text: 'horizontal scroll', by: page });
    for (const el of document.querySelectorAll('button, a.btn, [role=button], [role=tab], .btn')) {
      if (!visible(el)) continue;
      const h = el as HTMLElement;
      if (h.scrollWidth > h.clientWidth + 1)
        out.push({ what: `cut: ${label(el)}`, text: text(el), by: h.scrollWidth - h.clientWidth });
    }
    // A tab row is one row that fits: it never has to scroll sideways.
    for (const el of document.querySelectorAll('[role=tablist]')) {
      if (!visible(el)) continue;
      const h = el as HTMLElement;
      if (h.scrollWidth > h.clientWidth + 1)
        out.push({ what: `tabs scroll: ${label(el)}`, text: text(el), by: h.scrollWidth - h.clientWidth });
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el) || clippedByAncestor(el)) continue;
      const r = el.getBoundingClientRect();
      // Wholly outside on purpose (a skip link waiting for focus) is not cut.
      if (r.right <= 0 || r.left >= vw) continue;
      const by = Math.max(r.right - vw, -r.left);
      if (by > 1) out.push({ what: `edge: ${label(el)}`, text: text(el), by: Math.round(by) });
    }
    return out;
  });
}
