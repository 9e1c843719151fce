/** One work in the list: checkbox, 80x80 thumbnail, operation, filename, sizes, status and actions. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { sourceUrl, thumbnailUrl } from '../../api/endpoints.js';
import { formatBytes, formatPercent } from '../../shared/domain/locale.js';
import { localizedPath } from '../../shared/domain/links.js';
import { mattingTargetName, shortenFilename } from '../../shared/domain/filename.js';
import { ENLARGE_MAX_SIDE_PX } from '../../shared/domain/constants.js';
import { resultSize } from '../../shared/domain/resultSize.js';
import { statusKey } from '../../shared/domain/tabs.js';
import { UPLOAD_INTERRUPTED, type EditorHandOff, type Work } from '../../shared/domain/work.js';
import { useLang } from '../../app/lang.js';
import { dialogs } from '../../stores/dialogs.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { downloadButtonClass, downloadWork, previewUrls } from './actions.js';
import { operationLabel } from './operationLabel.js';
import { canProcessOnDevice, OnDeviceAction } from './OnDevice.js';
import { SizeLine } from './sizeNote.js';
import { EnlargeNotice, finishedStatusKey } from './enlargeNotice.js';
import { timeLeftText } from '../../shared/domain/estimate.js';
import { uploadErrorText } from '../../app/handleError.js';
import { PickAgain } from './PickAgain.js';
import { useOnline } from '../../pwa/online.js';

export const EDITOR_HANDOFF_KEY = 'imgInfo';

/** Why the work's last run failed, in the user's language (the server's reason code, the card's own sizes). */
function FailureText({ work }: { work: Work }) {
  const { t } = useTranslation('workspace');
  if (work.processError === 'outputTooLarge') {
    const out = resultSize(work);
    return <>{t('failure.outputTooLarge', { w: out.w, h: out.h, max: ENLARGE_MAX_SIDE_PX })}</>;
  }
  return <>{t(work.processError === 'processTimeout' ? 'failure.processTimeout' : 'failure.processFailed')}</>;
}

export function WorkCard({
  work,
  onDelete,
  highlighted,
}: {
  work: Work;
  onDelete(w: Work): void;
  highlighted?: boolean;
}) {
  const { t } = useTranslation('workspace');
  const lng = useLang();
  const navigate = useNavigate();
  const level = useUser((s) => s.level);
  const userToken = useUser((s) => s.userToken);
  const progress = useWorks((s) => s.progress[work.cid]);
  const timeLeft = useWorks((s) => s.timeLeft[work.cid]);
  const online = useOnline();
  const toggle = useWorks((s) => s.toggleSelect);
  const update = useWorks((s) => s.update);
  const finished = work.status === 'finished';
  const out = resultSize(work);
  const thumb =
    (finished ? work.resultThumbnail : undefined) ??
    work.thumbnail ??
    (work.sample ? work.originImg : work.uid && userToken ? thumbnailUrl(work.uid, userToken) : undefined);
  const busy =
    work.status === 'processing' ||
    work.status === 'uploading' ||
    work.status === 'resizing' ||
    work.status === 'compressing' ||
    work.status === 'waiting';

  // Upload progress and processing progress share the map; waiting shows neither.
  const showPercent = work.status === 'processing' || work.status === 'uploading';

  const onToggle = () => {
    if (!toggle(work.cid, level) && work.status === 'ready') dialogs.toast(t('selectLimit'), 'info');
  };

  const edit = () => {
    const urls = previewUrls(work, userToken ?? '');
    const handOff: EditorHandOff = {
      uid: work.uid ?? work.cid,
      width: work.w,
      height: work.h,
      zoomW: work.zoomW,
      zoomH: work.zoomH,
      transId: work.transId,
      filename: work.filename,
      targetName: mattingTargetName(work.filename),
      originImg: work.sample ? work.originImg : work.uid && userToken ? sourceUrl(work.uid, userToken) : undefined,
      targetImg: urls.after,
      zoomTargetImg: urls.after,
      isProcessed: true,
      sizeNum: 'large',
      ...(work.sample ? { sample: true } : {}),
    };
    localStorage.setItem(EDITOR_HANDOFF_KEY, JSON.stringify(handOff));
    navigate(localizedPath('/image-editor/', lng));
  };

  return (
    <li
      className={`work-card status-${work.status} ${work.selected ? 'is-selected' : ''} ${highlighted ? 'is-new' : ''}`}
      data-testid="work-card"
      data-status={work.status}
      data-new={highlighted ? 'true' : undefined}
      data-cid={work.cid}
      data-uid={work.uid}
    >
      {finished ? (
        // A result is chosen for "Download selected"; only ready works are selected to process.
        <input
          type="checkbox"
          className="work-check"
          checked={!!work.checked}
          onChange={() => update(work.cid, { checked: !work.checked })}
          aria-label={t('checkResult', { name: work.filename })}
          data-testid="result-check"
        />
      ) : (
        <input
          type="checkbox"
          className="work-check"
          checked={work.selected}
          disabled={work.status !== 'ready'}
          onChange={onToggle}
          aria-label={t('selectWork', { name: work.filename })}
        />
      )}
      <div className="work-thumb">
        {thumb ? (
          <img src={thumb} alt="" width={80} height={80} loading="lazy" />
        ) : (
          <span className="thumb-empty" aria-hidden="true" />
        )}
      </div>
      <div className="work-info">
        {work.operation && <span className="op-label">{operationLabel(work)}</span>}
        <span className="work-name" title={work.filename}>
          {shortenFilename(work.filename)}
          {work.sample && <span className="badge">{t('sample')}</span>}
        </span>
        {work.onDevice && (
          <span className="badge on-device-badge" data-testid="on-device-badge">
            {t('deviceChoice.badge')}
          </span>
        )}
        {work.w > 0 && (
          <span className="work-size">
            <SizeLine work={work} testId="source-size" />
          </span>
        )}
        {work.w > 0 && work.operation && (
          <span className="work-size">
            {t('outputSize')}:{' '}
            <span data-testid="output-size">
              {out.w}×{out.h}
            </span>
          </span>
        )}
        <span
          className={`work-status ${work.status === 'processFailed' || work.status === 'uploadFailed' || work.status === 'imageTooLarge' ? 'warn' : ''}`}
          role="status"
        >
          {t(finishedStatusKey(work) ?? statusKey(work.status))}
          {showPercent && typeof progress === 'number' && progress > 0 ? ` ${progress}%` : ''}
        </span>
        {work.status === 'processing' && typeof timeLeft === 'number' && (
          <span className="work-size" data-testid="time-left">
            {t(`timeLeft.${timeLeftText(timeLeft).unit}`, { count: timeLeftText(timeLeft).count })}
          </span>
        )}
        <EnlargeNotice work={work} testId="enlarge-path" />
        {/* Started offline: it starts by itself when the network returns (issue 47). */}
        {work.status === 'waiting' && !online && !work.sample && !work.onDevice && (
          <span className="work-size" data-testid="start-waits-for-network">
            {t('startWaitsForNetwork')}
          </span>
        )}
        {/* The browser would not store the picked file: a reload before it is uploaded loses it. */}
        {work.notKept && !work.uid && (
          <span className="work-reason" data-testid="not-kept">
            {t('notKept')}
          </span>
        )}
        {finished && work.operation === 'compress' && work.resultBytes !== undefined && work.filesize > 0 && (
          <span className="work-size" data-testid="size-saved">
            {work.resultBytes < work.filesize
              ? t('sizeSaved', {
                  before: formatBytes(work.filesize, lng),
                  after: formatBytes(work.resultBytes, lng),
                  percent: formatPercent(1 - work.resultBytes / work.filesize, lng),
                })
              : t('sizeGrew', { before: formatBytes(work.filesize, lng), after: formatBytes(work.resultBytes, lng) })}
          </span>
        )}
        {work.processError && (work.status === 'processFailed' || work.status === 'ready') && (
          <span className="work-reason warn" data-testid="process-reason" data-reason={work.processError}>
            <FailureText work={work} />
          </span>
        )}
        {(work.status === 'uploadFailed' || work.status === 'imageTooLarge') && work.uploadError && (
          <span className="work-reason warn" data-testid="upload-reason">
            {uploadErrorText({ error: work.uploadError, size: { w: work.sourceW, h: work.sourceH } }, level)}
          </span>
        )}
        {busy && (
          <span className="progress" aria-hidden="true">
            <span style={{ width: `${showPercent ? Math.max(4, progress ?? 4) : 0}%` }} />
          </span>
        )}
      </div>
      <div className="work-actions">
        {work.status === 'uploadFailed' && work.uploadError === UPLOAD_INTERRUPTED && <PickAgain work={work} />}
        {canProcessOnDevice(work) && <OnDeviceAction work={work} />}
        {finished && (
          <>
            <button
              className="icon-btn"
              aria-label={t('actions.preview')}
              title={t('actions.preview')}
              onClick={() => dialogs.open({ kind: 'preview', cid: work.cid })}
              data-testid="preview"
            >
              <Icon name="eye" />
            </button>
            <button
              className={`icon-btn${downloadButtonClass()}`}
              aria-label={t('actions.download')}
              title={t('actions.download')}
              onClick={() => void downloadWork(work)}
              data-testid="download"
            >
              <Icon name="download" />
            </button>
            {work.operation === 'matting' && !work.onDevice && (
              <button
                className="icon-btn"
                aria-label={t('actions.edit')}
                title={t('actions.edit')}
                onClick={edit}
                data-testid="edit"
              >
                <Icon name="edit" />
              </button>
            )}
          </>
        )}
        <button
          className="icon-btn danger"
          aria-label={t('actions.delete')}
          title={t('actions.delete')}
          onClick={() => onDelete(work)}
          data-testid="delete"
        >
          <Icon name="trash" />
        </button>
      </div>
    </li>
  );
}

const PATHS: Record<string, string> = {
  eye: 'M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12zm11 3a3 3 0 100-6 3 3 0 000 6z',
  download: 'M12 3v12m0 0l-5-5m5 5l5-5M4 19h16',
  edit: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  list: 'M4 6h16M4 12h16M4 18h16',
  upload: 'M12 16V4m0 0L7 9m5-5l5 5M4 20h16',
};

export function Icon({ name }: { name: keyof typeof PATHS | string }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
