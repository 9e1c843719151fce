import { useTranslation } from 'react-i18next';
import { FEATURE_PAGES } from '../shared/sitemap.js';
import { L } from '../app/lang.js';
import { usePageTitle } from './usePageTitle.js';
import { BeforeAfter, sampleResult, useSample } from '../features/showcase/BeforeAfter.js';
import { sampleTypeOf } from '../shared/sitemap.js';
import { HOME_HERO_KEY, HOME_HERO_TYPE } from '../features/showcase/heroSamples.js';

/** A tool card's picture: that feature's own sample result. */
function CardPicture({ type }: { type: string }) {
  const entry = useSample(type);
  return entry ? (
    <img
      className="card-pic"
      src={sampleResult(entry)}
      alt=""
      loading="lazy"
      decoding="async"
      width={entry.w}
      height={entry.h}
    />
  ) : (
    <span className="card-pic" aria-hidden="true" />
  );
}

export function HomePage() {
  const { t } = useTranslation('site');
  const tc = useTranslation().t;
  const tw = useTranslation('workspace').t;
  usePageTitle(t('home.title'));
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <div>
            <p className="eyebrow">{t('home.eyebrow')}</p>
            <h1>{t('home.title')}</h1>
            <p className="lead">{t('home.lead')}</p>
            <div className="hero-actions">
              <L to="/batch-process/" className="btn btn-primary btn-lg" data-testid="home-start">
                {t('home.cta')}
              </L>
              <L to="/pricing/?source=home&medium=hero" className="btn btn-ghost btn-lg">
                {t('features.seePlans')}
              </L>
            </div>
          </div>
          <div className="hero-compare">
            <BeforeAfter type={HOME_HERO_TYPE} label={tc(`featurePages.${HOME_HERO_KEY}`)} />
          </div>
        </div>
      </section>
      <section className="container">
        <h2>{t('home.featuresTitle')}</h2>
        <ul className="card-grid">
          {FEATURE_PAGES.map((f) => (
            <li key={f.path}>
              <L to={f.path} className="feature-card">
                <CardPicture type={sampleTypeOf(f)} />
                <strong>{tc(`featurePages.${f.key}`)}</strong>
                <span className="muted small">{t(`features.${f.key}.lead`)}</span>
              </L>
            </li>
          ))}
        </ul>
        <h2>{t('home.scenesTitle')}</h2>
        <ul className="card-grid">
          {(['ai_super_hd', 'ai_portrait_enhancement', 'ai_night_scene', 'ai_old_photo_repire_colorize'] as const).map(
            (m) => (
              <li key={m}>
                <L to={`/batch-process/?medium=${m}`} className="feature-card">
                  <strong>{tw(`presets.${m}`)}</strong>
                  <span className="muted small">{tw(`presetHelp.${m}`)}</span>
                </L>
              </li>
            ),
          )}
        </ul>
      </section>
    </>
  );
}
