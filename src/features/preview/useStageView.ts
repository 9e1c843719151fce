/** The compare stage's view: its pane's size as it changes, and wheel zoom over the whole stage. */
import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** The pane's size, measured again when it resizes (or, without ResizeObserver, when the window does); `layout` re-measures on a mode change. */
export function usePaneSize(pane: RefObject<HTMLElement | null>, layout: unknown): { w: number; h: number } {
  const [view, setView] = useState({ w: 0, h: 0 });
  useLayoutEffect(() => {
    const el = pane.current;
    if (!el) return;
    const measure = () => setView({ w: el.clientWidth, h: el.clientHeight });
    measure();
    // Older engines (and jsdom) lack ResizeObserver: fall back to window resizes.
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [pane, layout]);
  return view;
}

/**
 * Wheel zoom on the whole stage (the navigator included), centred on the pointer over a pane and on
 * the view over the navigator. A non-passive listener, so the page under the dialog keeps still.
 */
export function useWheelZoom(
  pane: RefObject<HTMLElement | null>,
  layout: unknown,
  wheelAt: (deltaY: number, x: number, y: number) => void,
): void {
  useEffect(() => {
    const wrap = pane.current?.closest<HTMLElement>('.preview-stage-wrap');
    if (!wrap) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const panes = [...wrap.querySelectorAll<HTMLElement>('.stage')];
      const under = panes.find((p) => p.contains(e.target as Node));
      const r = (under ?? panes[panes.length - 1]).getBoundingClientRect();
      wheelAt(e.deltaY, under ? e.clientX - r.left : r.width / 2, under ? e.clientY - r.top : r.height / 2);
    };
    wrap.addEventListener('wheel', onWheel, { passive: false });
    return () => wrap.removeEventListener('wheel', onWheel);
  }, [pane, layout, wheelAt]);
}
