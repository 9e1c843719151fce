/** The Work (processing item) and related client-side records of spec §3, shared by UI, worker and Dexie. */
import type { ModuleParams } from './modules.js';
import type { EnlargePath } from './enlargePath.js';

export const WORK_STATUSES = [
  'resizing',
  'compressing',
  'uploading',
  /** stored on this device while offline; uploads by itself when the network returns */
  'waitingForNetwork',
  'ready',
  'waiting',
  'processing',
  'finished',
  'imageTooLarge',
  'uploadFailed',
  'processFailed',
] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];

/** Why a work failed on the server: reason codes of src/shared/domain/reasons.ts (progress and history answer them). */
export const WORK_FAILURES = ['outputTooLarge', 'processTimeout', 'processFailed'] as const;
export type WorkFailure = (typeof WORK_FAILURES)[number];

/**
 * The uploadError (an i18n key) of a work whose upload a reload or a closed tab cut off before the
 * server had it and with nothing of it for this device to resume (src/db loadWorks): it is never
 * "Ready", and its card asks for the file again.
 */
export const UPLOAD_INTERRUPTED = 'upload:interrupted';

/** 'onDevice': kept in the browser for on-device processing, never uploaded (src/shared/domain/onDevice.ts) */
export type UploadStatus = 'ready' | 'uploading' | 'success' | 'failed' | 'onDevice';

interface WorkConfig {
  isPsd?: boolean;
  scale?: number;
  initScale?: number;
  sharpenBeta?: 'manual' | 'auto';
  quality?: 'high' | 'best';
  singleFace?: 'face' | 'entire';
}

export interface Work {
  /** client id, stable from the moment a file is dropped */
  cid: string;
  /** server upload id, once uploaded */
  uid?: string;
  u_uid?: string;
  filename: string;
  filesize: number;
  /** data URL or URL of the 80x80 thumbnail */
  thumbnail?: string;
  /** 80x80 data URL of the result, once finished (the card shows the result) */
  resultThumbnail?: string;
  /** the result file's size in bytes, once read (compress shows the size saved) */
  resultBytes?: number;
  w: number;
  h: number;
  /** the dropped file's own size, when the plan's limits shrank it to w×h at upload */
  sourceW?: number;
  sourceH?: number;
  zoomW?: number;
  zoomH?: number;
  /** a server enlargement's path once finished (enlargePath.ts): the card and the preview say a fast-net or resized one */
  enlargePath?: EnlargePath;
  status: WorkStatus;
  /** why an upload failed (an i18n key of the upload namespace): the card says it, not just "Upload failed" */
  uploadError?: string;
  /** why processing failed or was refused, as the server said it: the card says it, not just "Process failed" */
  processError?: WorkFailure;
  selected: boolean;
  checked?: boolean;
  originImg?: string;
  targetImg?: string;
  zoomTargetImg?: string;
  zoomOriginImg?: string;
  fileId?: string;
  zoomId?: string;
  zoomFileId?: string;
  /** module name, 'workflow' or a preset */
  operation?: string;
  workflow?: string;
  startTime?: number;
  endTime?: number;
  transId?: string;
  jobId?: string;
  targetName?: string;
  dstFileId?: string;
  likes?: number;
  sample?: boolean;
  /** kept on this device: never uploaded, processed in the browser (src/shared/domain/onDevice.ts) */
  onDevice?: boolean;
  processed?: boolean;
  /** the feature type the work was uploaded for (samples and limits are per type) */
  workType: string;
  uploadStartTime?: number;
  params?: { job: string; config?: { module: string; module_params: ModuleParams }; flows?: unknown[] };
  config?: WorkConfig;
  singleFace?: 'face' | 'other';
  /**
   * The start was on its way to the server when the page went away (stored before it is sent): on the
   * next load the server's record of recent works is asked before it is sent again (src/stores/processing.ts).
   */
  startSent?: boolean;
  /**
   * The Idempotency-Key of this work's current start (issue 47): made when the user starts it and stored
   * with the card before the start is sent, so a reloaded page resends the same key and the server answers
   * the first's work (one work, one charge). Cleared once the server answered the start.
   */
  startKey?: string;
  /** the trans_id this work held before its latest start: a newer one in the server's record is this start's */
  priorTransId?: string;
  /** the browser would not store the picked file (storage full or refused): it does not survive a reload before it is uploaded */
  notKept?: boolean;
  /** last update, ms — drives the one-day expiry of local storage */
  updatedAt: number;
}

export interface UploadHistoryEntry {
  uid: string;
  name: string;
  file_size: number;
  thumbnail: string;
  w: number;
  h: number;
  x: number;
  y: number;
}

/** One sample of GET /api/v2/sample/info (spec §7), keyed by feature type; server manifest and client list. */
export interface SampleEntry {
  name: string;
  /** URL path under /samples/ */
  original: string;
  /** URL path under /samples/; may hold the literal `{scale}` placeholder */
  processed: string;
  w: number;
  h: number;
}

/** A processing job's state on the server. */
type JobStatus = 'queued' | 'running' | 'finished' | 'failed';

/** One row of the processing history, GET /api/job/record (spec §7). */
export interface HistoryRecord {
  trans_id: string;
  uid: string;
  job: string;
  status: JobStatus;
  filename: string | null;
  w: number | null;
  h: number | null;
  result_w: number | null;
  result_h: number | null;
  created_at: number;
  finished_at: number | null;
  thumbsup: number | null;
  /** retention deleted the result, source and thumbnail (the row is kept) */
  expired: boolean;
  /** the result's size over the source's (enlarge steps; 1 for the rest) */
  scale: number;
  /** why it failed (a reason code of src/shared/domain/reasons.ts), when failed */
  reason?: WorkFailure;
  /** the path its enlargement took, when finished with an enlarge step (enlargePath.ts) */
  enlarge_path?: EnlargePath;
}

/** A page of a list answer (workflow list, history): spec §7 {datas[], current_page, total, last_page}. */
export interface Paged<T> {
  datas: T[];
  current_page: number;
  total: number;
  last_page: number;
}

/** imgInfo: the hand-off record to the matting editor (spec §3). */
export interface EditorHandOff {
  uid: string;
  width: number;
  height: number;
  zoomW?: number;
  zoomH?: number;
  transId?: string;
  filename: string;
  targetName: string;
  originImg?: string;
  targetImg?: string;
  zoomTargetImg?: string;
  isProcessed: true;
  sizeNum: 'large';
  sample?: boolean;
}
