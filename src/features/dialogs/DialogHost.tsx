/** Renders the dialog stack, the download overlays and the toast (spec §2, §8). */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import * as endpoints from '../../api/endpoints.js';
import { chainError } from '../../shared/domain/modules.js';
import { EXPIRED_NOTICE_MS, WORKFLOW_NAME_MAX } from '../../shared/domain/constants.js';
import { limitsFor } from '../../shared/domain/plans.js';
import { defaultWorkflowName, normaliseWorkflowName } from '../../shared/domain/workflowName.js';
import { pricingUrl } from '../../shared/domain/links.js';
import { chainText } from '../workspace/ruleErrors.js';
import { Modal } from '../../components/Modal.js';
import { ModalActions } from '../../components/ModalActions.js';
import { handleError } from '../../app/handleError.js';
import { useLang } from '../../app/lang.js';
import { useDialogs, type Dialog } from '../../stores/dialogs.js';
import { usePanel } from '../../stores/panel.js';
import { useUser } from '../../stores/user.js';
import { PreviewDialog } from '../preview/PreviewDialog.js';
import { useWorks } from '../../stores/works.js';
import { FIRST_USE_CHOICES, startFirstUse } from '../workspace/firstUseStart.js';

// The Basic/Pro compare dialog (upload page only) brings the sample loader: its own chunk.
const CompareDialog = lazy(() => import('../preview/CompareDialog.js').then((m) => ({ default: m.CompareDialog })));

export function DialogHost() {
  const { stack, close, downloading, setDownloading, toast } = useDialogs();
  const { t } = useTranslation(['common', 'errors', 'workspace']);
  return (
    <>
      {stack.map((e) => (
        <DialogView key={e.id} dialog={e.dialog} onClose={() => close(e.id)} />
      ))}
      {downloading === 'single' && (
        <div className="loading-overlay" role="status" data-testid="download-overlay">
          <div className="loading-box">
            <span className="spinner" aria-hidden="true" />
            {t('downloading')}
          </div>
        </div>
      )}
      {downloading === 'bulk' && (
        <div className="loading-overlay" role="status" data-testid="bulk-overlay">
          <div className="loading-box">
            <span className="spinner" aria-hidden="true" />
            {t('preparingZip')}
            <button className="icon-btn" aria-label={t('close')} onClick={() => setDownloading(null)}>
              ✕
            </button>
          </div>
        </div>
      )}
      {toast && (
        <div
          className={`toast toast-${toast.tone}${toast.actions?.length ? ' toast-actions' : ''}`}
          role="status"
          data-testid={toast.testId ?? 'toast'}
        >
          <span>{toast.text}</span>
          {toast.actions?.map((a) => (
            <button
              key={a.label}
              className="toast-btn"
              onClick={() => {
                useDialogs.getState().hideToast();
                a.onClick();
              }}
              data-testid={a.testId}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
    </>
  );
}

function DialogView({ dialog, onClose }: { dialog: Dialog; onClose(): void }) {
  const { t } = useTranslation(['common', 'errors', 'workspace']);
  const lng = useLang();
  const navigate = useNavigate();
  switch (dialog.kind) {
    case 'confirm':
      return (
        <Modal title={dialog.title} onClose={onClose} testId="confirm-dialog">
          <p>{dialog.message}</p>
          <ModalActions dismiss={t('cancel')} onDismiss={onClose} dismissTestId="confirm-cancel">
            <button
              className="btn btn-danger"
              onClick={() => {
                onClose();
                dialog.onConfirm();
              }}
              data-testid="confirm-ok"
            >
              {dialog.confirmLabel ?? t('confirm')}
            </button>
          </ModalActions>
        </Modal>
      );
    case 'message':
      return (
        <Modal
          title={dialog.title ?? t(dialog.tone === 'error' ? 'errorTitle' : 'noticeTitle')}
          onClose={onClose}
          testId="message-dialog"
        >
          <p className={`pre-line tone-${dialog.tone ?? 'info'}`}>{dialog.message}</p>
          <OkAction onClose={onClose} />
        </Modal>
      );
    case 'insufficientCredits':
      return <InsufficientCredits onClose={onClose} />;
    case 'notEnoughPoints':
      return (
        <Modal onClose={onClose} testId="points-dialog">
          <div className="center">
            <div className="warn-icon" aria-hidden="true">
              !
            </div>
            <h2>{t('errors:process_limit_1')}</h2>
            <p className="muted">{t('errors:process_limit_2')}</p>
            <button
              className="btn btn-primary"
              onClick={() => {
                onClose();
                endpoints.report('add_credits_popup', {});
                navigate(pricingUrl(lng, 'add_credits_popup'));
              }}
              data-testid="points-confirm"
            >
              {t('errors:addCredits')}
            </button>
          </div>
        </Modal>
      );
    case 'tooManyFiles':
      return (
        <Modal title={t('errors:tooManyFiles')} onClose={onClose} testId="too-many-dialog">
          <p>{t('errors:tooManyFilesText', { count: limitsFor(useUser.getState().level).batch })}</p>
          <OkAction onClose={onClose} />
        </Modal>
      );
    case 'upgrade':
      return (
        <Modal title={t('upgradeTitle')} onClose={onClose} testId="upgrade-dialog">
          <p>{dialog.message}</p>
          <ModalActions dismiss={t('notNow')} onDismiss={onClose}>
            <button
              className="btn btn-primary"
              onClick={() => {
                onClose();
                navigate(pricingUrl(lng, dialog.source, dialog.medium));
              }}
              data-testid="upgrade-go"
            >
              {t('upgradeCta')}
            </button>
          </ModalActions>
        </Modal>
      );
    case 'saveWorkflow':
      return <SaveWorkflow onClose={onClose} />;
    case 'preview':
      return <PreviewDialog cid={dialog.cid} onClose={onClose} />;
    case 'compare':
      return (
        <Suspense fallback={null}>
          <CompareDialog onClose={onClose} />
        </Suspense>
      );
    case 'chooseFeature':
      return <ChooseFeature cid={dialog.cid} onClose={onClose} />;
  }
}

/** First use without a feature on the page: ask what to do instead of spending a credit on a default. */
function ChooseFeature({ cid, onClose }: { cid: string; onClose(): void }) {
  const { t } = useTranslation('workspace');
  const work = useWorks((s) => s.works.find((w) => w.cid === cid));
  return (
    <Modal title={t('choose.title')} onClose={onClose} size="md" testId="choose-feature-dialog">
      <div className="choose-head">
        {work?.thumbnail && <img src={work.thumbnail} alt="" width={64} height={64} />}
        <p className="muted">{t('choose.text', { name: work?.filename ?? '' })}</p>
      </div>
      <ul className="choose-grid">
        {FIRST_USE_CHOICES.map((m) => (
          <li key={m}>
            <button
              className="choose-item"
              data-testid={`choose-${m}`}
              onClick={() => {
                onClose();
                usePanel.getState().setTab('feature');
                usePanel.getState().setFeatureModule(m);
                startFirstUse();
              }}
            >
              <strong>{t(`modules.${m}`)}</strong>
              <span className="muted small">{t(`moduleHelp.${m}`)}</span>
            </button>
          </li>
        ))}
      </ul>
      <ModalActions dismiss={t('choose.later')} onDismiss={onClose} dismissTestId="choose-later" />
    </Modal>
  );
}

/** Spec §8: shows for 3 seconds, then goes to pricing. */
function InsufficientCredits({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['common', 'errors', 'workspace']);
  const lng = useLang();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => {
      onClose();
      navigate(pricingUrl(lng, 'insufficient_credits'));
    }, EXPIRED_NOTICE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Modal title={t('errors:insufficientTitle')} onClose={onClose} testId="insufficient-dialog">
      <p>{t('errors:insufficientText')}</p>
      <p className="muted small">{t('errors:redirecting')}</p>
    </Modal>
  );
}

function SaveWorkflow({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['common', 'errors', 'workspace']);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const level = useUser((s) => s.level);
  const save = async () => {
    const panel = usePanel.getState();
    const chain = chainError(
      panel.steps.map((s) => s.config.module),
      limitsFor(level).workflowSteps,
    );
    // The chain rule's own reason (no steps, too many, enlarge/matting not last), translated.
    if (chain) return setError(chainText(chain));
    const n = normaliseWorkflowName(name, WORKFLOW_NAME_MAX, Date.now());
    if (!n.ok) return setError(t('workspace:nameTooLong', { max: WORKFLOW_NAME_MAX }));
    setBusy(true);
    try {
      const res = await endpoints.workflowAdd(n.name, panel.steps, panel.workflowId ?? undefined);
      usePanel.setState((st) => ({
        workflowId: res?.id ?? panel.workflowId,
        workflowName: n.name,
        savedVersion: st.savedVersion + 1,
      }));
      onClose();
    } catch (e) {
      handleError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('workspace:saveWorkflow')} onClose={onClose} testId="save-workflow-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="field">
          <span>{t('workspace:workflowName')}</span>
          <input
            value={name}
            maxLength={WORKFLOW_NAME_MAX + 10}
            onChange={(e) => setName(e.target.value)}
            placeholder={defaultWorkflowName(Date.now())}
            autoFocus
            data-testid="workflow-name"
          />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <ModalActions dismiss={t('cancel')} onDismiss={onClose}>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('save')}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}

/** The single OK button that closes a notice. */
function OkAction({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <div className="modal-actions">
      <button className="btn btn-primary" onClick={onClose}>
        {t('ok')}
      </button>
    </div>
  );
}
