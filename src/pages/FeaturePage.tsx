/** A feature page: hero and how-to; the workspace opens as a popup dialog with the feature preselected. */
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sampleTypeOf, type FeaturePage as FeaturePageDef } from '../shared/sitemap.js';
import { BeforeAfter } from '../features/showcase/BeforeAfter.js';
import { Modal } from '../components/Modal.js';
import { usePanel } from '../stores/panel.js';
import { useUser } from '../stores/user.js';
import { limitsFor } from '../shared/domain/plans.js';
import { L } from '../app/lang.js';
import { usePageTitle } from './usePageTitle.js';

// The workspace (and the upload manager) loads when the popup opens, not with the page.
const BatchProcess = lazy(() =>
  import('../features/workspace/BatchProcess.js').then((m) => ({ default: m.BatchProcess })),
);

export function FeaturePage({ page }: { page: FeaturePageDef }) {
  const { t } = useTranslation('site');
  const [open, setOpen] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const level = useUser((s) => s.level);
  const title = t(`features.${page.key}.title`);
  usePageTitle(title);
  const openWith = (files?: File[]) => {
    if (page.module) {
      usePanel.getState().setTab('feature');
      usePanel.getState().setFeatureModule(page.module);
    } else if (page.preset) usePanel.getState().usePreset(page.preset);
    setOpen(true);
    if (files?.length)
      void import('../features/workspace/UploadArea.js').then((m) => m.handleFiles(files, page.module ?? 'workflow'));
  };
  return (
    <div className="feature-page">
      <section
        className="hero"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          openWith([...e.dataTransfer.files]);
        }}
      >
        <div className="container hero-inner">
          <div>
            <p className="eyebrow">{t('features.eyebrow')}</p>
            <h1>{title}</h1>
            <p className="lead">{t(`features.${page.key}.lead`)}</p>
            <div className="hero-actions">
              {/* "Upload image" is the file picker itself: the workspace opens with the chosen files. */}
              <button
                className="btn btn-primary btn-lg"
                onClick={() => picker.current?.click()}
                data-testid="upload-cta"
              >
                {t('features.cta')}
              </button>
              <input
                ref={picker}
                type="file"
                accept="image/jpeg,image/png,.jpg,.jpeg,.png"
                multiple={limitsFor(level).batch > 1}
                hidden
                data-testid="hero-file-input"
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = '';
                  if (files.length) openWith(files);
                }}
              />
              <L to="/pricing/?source=feature_page&medium=hero" className="btn btn-ghost btn-lg">
                {t('features.seePlans')}
              </L>
            </div>
            <p className="muted small">
              {t('features.dropHint')}{' '}
              <button className="link-btn" onClick={() => openWith()} data-testid="open-workspace">
                {t('features.openWorkspace')}
              </button>
            </p>
          </div>
          <div className="hero-compare">
            <BeforeAfter type={sampleTypeOf(page)} label={title} />
          </div>
        </div>
      </section>
      <section className="container steps-how">
        <h2>{t('features.howTitle')}</h2>
        <ol className="how-list">
          <li>
            <strong>{t('features.how1')}</strong>
            <p className="muted">{t('features.how1Text')}</p>
          </li>
          <li>
            <strong>{t('features.how2')}</strong>
            <p className="muted">{t('features.how2Text')}</p>
          </li>
          <li>
            <strong>{t('features.how3')}</strong>
            <p className="muted">{t('features.how3Text')}</p>
          </li>
        </ol>
      </section>
      {open && (
        <Modal
          title={title}
          onClose={() => setOpen(false)}
          size="xl"
          testId="workspace-dialog"
          className="workspace-modal"
        >
          <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
            <BatchProcess preselect={{ module: page.module, preset: page.preset }} />
          </Suspense>
        </Modal>
      )}
    </div>
  );
}
