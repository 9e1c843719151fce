/** Upload area: drop zone, Uploaded / Sample tabs, continue button; plus the full-screen drop overlay. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { getCached, setCached } from '../../db/lazy.js';
import {
  BATCH_INPUT_MAX,
  DROP_OVERLAY_HIDE_MS,
  FIRST_FLAGS_COOKIE_DAYS,
  UPLOADED_CACHE_EXPIRY_MS,
} from '../../shared/domain/constants.js';
import { COOKIE, setCookie } from '../../lib/cookies.js';
import { limitsFor } from '../../shared/domain/plans.js';
import type { SampleEntry, UploadHistoryEntry, Work } from '../../shared/domain/work.js';
import { handleError, uploadErrorText } from '../../app/handleError.js';
import { useLang } from '../../app/lang.js';
import { formatNumber } from '../../shared/domain/locale.js';
import { dialogs } from '../../stores/dialogs.js';
import { addFiles } from '../../stores/uploads.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { installGuestFirstUse } from './firstUse.js';
import { Icon } from './WorkCard.js';
import { useOnline } from '../../pwa/online.js';

const tUpload = (error: string) => uploadErrorText({ error }, useUser.getState().level);

export async function handleFiles(files: File[], workType: string): Promise<void> {
  if (files.length === 0) return;
  // Before the first upload can be ready: a feature page hands its files here while the workspace
  // popup is still loading, and a listener installed only when the popup mounts missed a quick upload.
  installGuestFirstUse();
  if (files.length > BATCH_INPUT_MAX) {
    dialogs.open({ kind: 'tooManyFiles' });
    return;
  }
  try {
    const res = await addFiles(files, workType);
    if (res.error === 'upload:tooManyFiles') {
      dialogs.open({ kind: 'tooManyFiles' });
      return;
    }
    // One dialog: the batch-level reason first, then each refused file with its own reason.
    const lines = [
      ...(res.error ? [tUpload(res.error)] : []),
      ...res.rejected.filter((r) => r.error !== res.error).map((r) => `${r.filename}: ${tUpload(r.error)}`),
    ];
    if (lines.length) dialogs.open({ kind: 'message', tone: 'warning', message: lines.join('\n') });
  } catch (e) {
    handleError(e);
  }
}

/** Fetches the sample list (cached locally, spec §4) once per session. */
let samplesPromise: Promise<Record<string, SampleEntry[]>> | undefined;
export function loadSamples(): Promise<Record<string, SampleEntry[]>> {
  samplesPromise ??= (async () => {
    const cached = await getCached<Record<string, SampleEntry[]>>('samples', UPLOADED_CACHE_EXPIRY_MS).catch(
      () => undefined,
    );
    if (cached) return cached;
    const fresh = await endpoints.sampleInfo();
    void setCached('samples', fresh).catch(() => undefined);
    return fresh;
  })().catch((e) => {
    samplesPromise = undefined;
    throw e;
  });
  return samplesPromise;
}

/** A phone or tablet: touch only, nothing that hovers (no mouse), so nothing to drag files with. */
export const isTouchOnly = (): boolean =>
  typeof window !== 'undefined' && Boolean(window.matchMedia?.('(hover: none) and (pointer: coarse)').matches);

export function UploadArea({ workType, onContinue }: { workType: string; onContinue(): void }) {
  const { t } = useTranslation('workspace');
  const [tab, setTab] = useState<'uploaded' | 'sample'>('uploaded');
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const level = useUser((s) => s.level);
  const lng = useLang();
  const multiple = limitsFor(level).batch > 1;
  const [touchOnly] = useState(isTouchOnly);

  return (
    <section className="upload-area" aria-label={t('upload.title')}>
      <div className="upload-tabs" role="tablist">
        <button
          role="tab"
          aria-selected={tab === 'uploaded'}
          onClick={() => setTab('uploaded')}
          data-testid="upload-tab-uploaded"
        >
          {t('upload.tabUploaded')}
        </button>
        <button
          role="tab"
          aria-selected={tab === 'sample'}
          onClick={() => setTab('sample')}
          data-testid="upload-tab-sample"
        >
          {t('upload.tabSample')}
        </button>
      </div>
      {tab === 'uploaded' ? (
        <div
          className={`dropzone ${over ? 'over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setOver(false);
            void handleFiles([...e.dataTransfer.files], workType);
          }}
        >
          <span className="dropzone-icon">
            <Icon name="upload" />
          </span>
          <p className="dropzone-title" data-testid="dropzone-title">
            {touchOnly ? t('upload.dropTouch', { button: t('upload.browse') }) : t('upload.drop')}
          </p>
          <p className="muted small" data-testid="upload-limits">
            {t('upload.formats', {
              mp: formatNumber(limitsFor(level).maxMegapixels, lng),
              mb: Math.round(limitsFor(level).maxFileBytes / 1048576),
            })}
          </p>
          <button className="btn btn-primary" onClick={() => input.current?.click()} data-testid="browse">
            {t('upload.browse')}
          </button>
          <input
            ref={input}
            type="file"
            accept="image/jpeg,image/png,.jpg,.jpeg,.png"
            multiple={multiple}
            hidden
            data-testid="file-input"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              void handleFiles(files, workType);
            }}
          />
        </div>
      ) : (
        <SampleGrid workType={workType} />
      )}
      {tab === 'uploaded' && <UploadHistory workType={workType} />}
      <div className="upload-foot">
        <button className="btn btn-secondary" onClick={onContinue} data-testid="continue">
          {t('upload.continue')}
        </button>
      </div>
    </section>
  );
}

function SampleGrid({ workType }: { workType: string }) {
  const { t } = useTranslation('workspace');
  const [samples, setSamples] = useState<SampleEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const add = useWorks((s) => s.add);
  const works = useWorks((s) => s.works);

  useEffect(() => {
    let live = true;
    loadSamples()
      .then((all) => live && setSamples(all[workType] ?? []))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [workType]);

  if (failed) return <p className="muted center">{t('network', { ns: 'errors' })}</p>;
  if (!samples) return <p className="muted center">{t('loading')}</p>;
  if (samples.length === 0) return <p className="muted center">{t('upload.noSamples')}</p>;
  return (
    <ul className="sample-grid">
      {samples.map((s) => {
        const cid = `sample-${workType}-${s.name}`;
        const added = works.some((w) => w.cid === cid);
        const pick = () => {
          if (added) return;
          const now = Date.now();
          const work: Work = {
            cid,
            uid: cid,
            filename: s.name,
            filesize: 0,
            thumbnail: s.original,
            w: s.w,
            h: s.h,
            status: 'ready',
            selected: false,
            sample: true,
            originImg: s.original,
            targetImg: s.processed,
            workType,
            uploadStartTime: now,
            updatedAt: now,
          };
          add([work]);
        };
        return (
          <li key={s.name}>
            <button
              className={`sample ${added ? 'added' : ''}`}
              onClick={pick}
              aria-pressed={added}
              data-testid="sample"
            >
              <img src={s.original} alt={s.name} loading="lazy" />
              <span>{added ? t('upload.added') : t('upload.useSample')}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Full-screen overlay while files are dragged over the window; hides by itself after 3 s. */
export function DropOverlay({ workType }: { workType: string }) {
  const { t } = useTranslation('workspace');
  const [show, setShow] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onEnter = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      setShow(true);
      clearTimeout(timer);
      timer = setTimeout(() => setShow(false), DROP_OVERLAY_HIDE_MS);
    };
    window.addEventListener('dragenter', onEnter);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      clearTimeout(timer);
    };
  }, []);
  if (!show) return null;
  return (
    <div
      className="drop-overlay"
      data-testid="drop-overlay"
      onDragOver={(e) => e.preventDefault()}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setShow(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setShow(false);
        setCookie(COOKIE.isFirstDrag, '1', FIRST_FLAGS_COOKIE_DAYS);
        void handleFiles([...e.dataTransfer.files], workType);
      }}
    >
      <div className="drop-overlay-box">
        <Icon name="upload" />
        <p>{t('upload.dropAnywhere')}</p>
      </div>
    </div>
  );
}

/** Uploads of the last 24 hours on the server that are not in the list (another tab, a deleted card). */
function UploadHistory({ workType }: { workType: string }) {
  const { t } = useTranslation('workspace');
  const works = useWorks((s) => s.works);
  const add = useWorks((s) => s.add);
  const userToken = useUser((s) => s.userToken);
  const [history, setHistory] = useState<UploadHistoryEntry[]>([]);
  const online = useOnline();

  useEffect(() => {
    if (!userToken) return;
    let live = true;
    endpoints
      .uploadList()
      .then((r) => {
        const list = (r.datas ?? []) as UploadHistoryEntry[];
        void setCached('uploadHistory', list).catch(() => undefined);
        if (live) setHistory(list);
      })
      .catch(async () => {
        const cached = await getCached<UploadHistoryEntry[]>('uploadHistory', UPLOADED_CACHE_EXPIRY_MS).catch(
          () => undefined,
        );
        if (live && cached) setHistory(cached);
      });
    return () => {
      live = false;
    };
  }, [userToken]);

  const known = new Set(works.map((w) => w.uid));
  // Offline, only uploads whose thumbnail this device holds are listed (the server's would show broken).
  const entries = history.filter((h) => !known.has(h.uid) && (online || h.thumbnail?.startsWith('data:')));
  if (entries.length === 0 || !userToken) return null;
  const thumb = (h: UploadHistoryEntry) =>
    h.thumbnail?.startsWith('data:') ? h.thumbnail : endpoints.thumbnailUrl(h.uid, userToken);
  return (
    <div className="history" data-testid="upload-history">
      <span className="label">{t('upload.recent')}</span>
      <ul className="history-list">
        {entries.slice(0, 12).map((h) => (
          <li key={h.uid}>
            <button
              className="history-item"
              title={h.name}
              aria-label={t('upload.reuse', { name: h.name })}
              onClick={() => {
                const now = Date.now();
                add([
                  {
                    cid: `up-${h.uid}`,
                    uid: h.uid,
                    filename: h.name,
                    filesize: h.file_size,
                    thumbnail: thumb(h),
                    w: h.w,
                    h: h.h,
                    status: 'ready',
                    selected: false,
                    workType,
                    updatedAt: now,
                  },
                ]);
              }}
            >
              <img src={thumb(h)} alt="" width={56} height={56} loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
