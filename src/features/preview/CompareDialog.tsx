/** Upload page compare dialog: original vs Basic vs Pro result of a sample, with upgrade or decline. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SampleEntry } from '../../shared/domain/work.js';
import { pricingUrl } from '../../shared/domain/links.js';
import { Modal } from '../../components/Modal.js';
import { useLang } from '../../app/lang.js';
import { loadSamples } from '../workspace/UploadArea.js';
import { ModalActions } from '../../components/ModalActions.js';

export function CompareDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('workspace');
  const lng = useLang();
  const navigate = useNavigate();
  const [sample, setSample] = useState<SampleEntry | null | undefined>(undefined);
  useEffect(() => {
    loadSamples()
      .then((all) => setSample(all.enlarge?.[0] ?? null))
      .catch(() => setSample(null));
  }, []);
  // Basic renders 2x, Pro up to 8x: the sample's {scale} placeholder picks the result image.
  const cells = sample
    ? [
        { label: t('compare.original'), src: sample.original },
        { label: t('compare.basic'), src: sample.processed.replaceAll('{scale}', '2') },
        { label: t('compare.pro'), src: sample.processed.replaceAll('{scale}', '4') },
      ]
    : [];
  return (
    <Modal title={t('compare.title')} onClose={onClose} size="lg" testId="compare-dialog">
      {sample === undefined && <p className="muted">{t('loading')}</p>}
      {sample === null && <p className="muted">{t('upload.noSamples')}</p>}
      <div className="compare-grid">
        {cells.map((c) => (
          <figure key={c.label}>
            {/* All three at the Pro output's scale, centre crop: detail differences show at a glance. */}
            <div className="compare-cell">
              <img src={c.src} alt={c.label} style={{ width: (sample?.w ?? 0) * 4 }} />
            </div>
            <figcaption>{c.label}</figcaption>
          </figure>
        ))}
      </div>
      <ModalActions dismiss={t('compare.decline')} onDismiss={onClose} dismissTestId="compare-decline">
        <button
          className="btn btn-primary"
          onClick={() => {
            onClose();
            navigate(pricingUrl(lng, 'compare', 'upgrade_pro'));
          }}
        >
          {t('compare.upgrade')}
        </button>
      </ModalActions>
    </Modal>
  );
}
