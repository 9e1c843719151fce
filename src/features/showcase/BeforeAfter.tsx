/**
 * The storefront's proof: a before/after slider over one of our engines' own sample outputs
 * (public/samples, written by `npm run samples`). Keyboard: the slider is a range input.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SampleEntry } from '../../domain/work.js';

let manifest: Promise<Record<string, SampleEntry[]>> | undefined;
/** The sample manifest, fetched once (a small static file, cached by the service worker). */
export function sampleManifest(): Promise<Record<string, SampleEntry[]>> {
  manifest ??= fetch('/samples/manifest.json')
    .then((r) => (r.ok ? (r.json() as Promise<Record<string, SampleEntry[]>>) : {}))
    .catch(() => {
      manifest = undefined;
      return {};
    });
  return manifest;
}

/** A sample's result path: enlarge shows its 2× output, portrait its whole-picture sketch. */
export function sampleResult(e: SampleEntry): string {
  return e.processed.replaceAll('{scale}', '2');
}

export function useSample(type: string): SampleEntry | null {
  const [entry, setEntry] = useState<SampleEntry | null>(null);
  useEffect(() => {
    let live = true;
    void sampleManifest().then((m) => live && setEntry(m[type]?.[0] ?? null));
    return () => {
      live = false;
    };
  }, [type]);
  return entry;
}

export function BeforeAfter({ type, label }: { type: string; label: string }) {
  const { t } = useTranslation('site');
  const entry = useSample(type);
  const [pos, setPos] = useState(50);
  const ratio = entry ? `${entry.w} / ${entry.h}` : '3 / 2';
  return (
    <figure className={`before-after ${type === 'matting' ? 'transparent' : ''}`} style={{ aspectRatio: ratio }} data-testid="before-after">
      {entry && (
        <>
          <img className="ba-after" src={sampleResult(entry)} alt={t('showcase.after', { feature: label })} width={entry.w} height={entry.h} decoding="async" />
          <img
            className="ba-before"
            src={entry.original}
            alt={t('showcase.before', { feature: label })}
            width={entry.w}
            height={entry.h}
            decoding="async"
            style={{ clipPath: `inset(0 ${100 - pos}% 0 0)` }}
          />
          <span className="ba-line" style={{ left: `${pos}%` }} aria-hidden="true" />
          <span className="ba-tag left">{t('showcase.beforeTag')}</span>
          <span className="ba-tag right">{t('showcase.afterTag')}</span>
          <input
            className="ba-range"
            type="range"
            min={0}
            max={100}
            value={pos}
            onChange={(e) => setPos(Number(e.target.value))}
            aria-label={t('showcase.slider')}
            data-testid="before-after-range"
          />
        </>
      )}
      <figcaption className="ba-caption">{t('showcase.caption', { name: entry?.name ?? '' })}</figcaption>
    </figure>
  );
}
