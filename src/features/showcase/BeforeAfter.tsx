/**
 * The storefront's proof: a before/after slider over one of our engines' own sample outputs
 * (public/samples, written by `npm run samples`). Keyboard: the slider is a range input.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BeforeAfterTags } from '../../components/BeforeAfterTags.js';
import type { SampleEntry } from '../../shared/domain/work.js';
import { heroEntry, SAMPLE_MANIFEST_URL, sampleResult } from './heroSamples.js';

export { sampleResult };

let manifest: Promise<Record<string, SampleEntry[]>> | undefined;
/** The sample manifest, fetched once (a small static file, precached by the service worker). */
function sampleManifest(): Promise<Record<string, SampleEntry[]>> {
  manifest ??= fetch(SAMPLE_MANIFEST_URL)
    .then((r) => (r.ok ? (r.json() as Promise<Record<string, SampleEntry[]>>) : {}))
    .catch(() => {
      manifest = undefined;
      return {};
    });
  return manifest;
}

/** The hero's sample and whether the manifest has answered (`settled`), so "none" differs from "not yet". */
function useHeroSample(type: string): { entry: SampleEntry | null; settled: boolean } {
  const [state, setState] = useState<{ type: string; entry: SampleEntry | null } | null>(null);
  useEffect(() => {
    let live = true;
    void sampleManifest().then((m) => live && setState({ type, entry: heroEntry(m, type) }));
    return () => {
      live = false;
    };
  }, [type]);
  const settled = state?.type === type;
  return { entry: settled ? state.entry : null, settled };
}

export function useSample(type: string): SampleEntry | null {
  return useHeroSample(type).entry;
}

export function BeforeAfter({ type, label }: { type: string; label: string }) {
  const { t } = useTranslation('site');
  const { entry, settled } = useHeroSample(type);
  const [pos, setPos] = useState(50);
  // A picture that cannot load (offline before the service worker stored the samples) leaves no broken box.
  const [broken, setBroken] = useState<string | null>(null);
  const onError = () => setBroken(type);
  if ((settled && !entry) || broken === type) {
    return (
      <figure className="before-after ba-unavailable" data-testid="before-after" data-state="unavailable">
        <p>{t('showcase.unavailable')}</p>
      </figure>
    );
  }
  const ratio = entry ? `${entry.w} / ${entry.h}` : '3 / 2';
  return (
    <figure
      className={`before-after ${type === 'matting' ? 'transparent' : ''}`}
      style={{ aspectRatio: ratio }}
      data-testid="before-after"
      data-state={entry ? 'shown' : 'loading'}
    >
      {entry && (
        <>
          <img
            className="ba-after"
            src={sampleResult(entry)}
            alt={t('showcase.after', { feature: label })}
            width={entry.w}
            height={entry.h}
            decoding="async"
            onError={onError}
          />
          <img
            className="ba-before"
            src={entry.original}
            alt={t('showcase.before', { feature: label })}
            width={entry.w}
            height={entry.h}
            decoding="async"
            onError={onError}
            style={{ clipPath: `inset(0 ${100 - pos}% 0 0)` }}
          />
          <span className="ba-line" style={{ left: `${pos}%` }} aria-hidden="true" />
          <BeforeAfterTags className="ba-tag" before={t('showcase.beforeTag')} after={t('showcase.afterTag')} />
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
          <figcaption className="ba-caption">{t('showcase.caption', { name: entry.name })}</figcaption>
        </>
      )}
    </figure>
  );
}
