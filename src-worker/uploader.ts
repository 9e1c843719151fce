/**
 * Uploads of spec §7: whole file to /web_api/v1/upload, or 5 MB slices to /api/v2/upload_slice one at a
 * time. Beyond the spec, a sliced upload resumes from the slices the server acknowledged.
 */
import { CHUNK_SIZE_BYTES } from '../src/shared/domain/constants.js';
import { ROUTE_TABLE } from '../src/shared/routeTable.js';
import { CODE, type Envelope as BaseEnvelope } from '../src/shared/domain/codes.js';
import { refusalOf, type UploadRefusalInfo } from '../src/shared/domain/uploadRefusals.js';

// The upload routes' paths, from the route table (written from their schemas: src/shared/schemas/uploads.ts).
const UPLOAD_PATH = ROUTE_TABLE.Upload[1];
const SLICE_PATH = ROUTE_TABLE.UploadSlice[1];
const SLICE_STATUS_PATH = ROUTE_TABLE.SliceStatus[1];

export type UploadErrorKey = 'upload:network' | 'upload:uploadFailed';

/** A failed upload; `key` is the i18n key shown to the user, `serverMsg` what the server said. */
export class UploadError extends Error {
  constructor(
    readonly key: UploadErrorKey,
    readonly serverMsg?: string,
    readonly code?: number,
    /** a server refusal: its reason's code (data.refusal) and HTTP status, for the client to translate */
    readonly refusal?: Pick<UploadRefusalInfo, 'reason' | 'status'>,
  ) {
    super(serverMsg ?? key);
    this.name = 'UploadError';
  }
}

export interface UploadTarget {
  apiBase: string;
  token: string;
  job: string;
}

export interface UploadedFile {
  uid: string;
  filename: string;
  filesize: number;
  w: number;
  h: number;
  thumbnail?: string;
  sha256?: string;
}

export interface SliceState {
  uid?: string;
  total: number;
  /** 1-based slice numbers the server has acknowledged */
  acked: number[];
}

// The server's answers are checked field by field below, so their data is read loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON, validated where it is read
type Envelope = BaseEnvelope<any>;

type Progress = (loaded: number, total: number) => void;

/** Whole-file uploads above this go as slices (spec §7). */
export function needsSlicing(bytes: number): boolean {
  return bytes > CHUNK_SIZE_BYTES;
}

export function sliceCount(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / CHUNK_SIZE_BYTES));
}

/** POSTs a form and returns the envelope; XHR where it exists, for real upload progress. */
async function postForm(
  url: string,
  form: FormData | URLSearchParams,
  signal?: AbortSignal,
  onProgress?: Progress,
  headers: Record<string, string> = {},
): Promise<Envelope> {
  signal?.throwIfAborted();
  let status: number;
  let text: string;
  try {
    if (XhrCtor()) {
      ({ status, text } = await xhrPost(url, form, signal, onProgress, headers));
    } else {
      const res = await fetch(url, { method: 'POST', body: form, signal, headers });
      status = res.status;
      text = await res.text();
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e;
    throw new UploadError('upload:network', (e as Error).message);
  }
  let env: Envelope;
  try {
    env = JSON.parse(text) as Envelope;
  } catch {
    throw new UploadError(status >= 500 || status === 0 ? 'upload:network' : 'upload:uploadFailed', `HTTP ${status}`);
  }
  if (env.code !== CODE.OK)
    throw new UploadError('upload:uploadFailed', env.msg, env.code, { reason: refusalOf(env.data), status });
  return env;
}

/** The part of XMLHttpRequest used here (typed locally: this module also compiles for node). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  upload: { onprogress: ((e: { loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  status: number;
  responseText: string;
  abort(): void;
  send(body: FormData | URLSearchParams): void;
}
const XhrCtor = () => (globalThis as unknown as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

function xhrPost(
  url: string,
  form: FormData | URLSearchParams,
  signal?: AbortSignal,
  onProgress?: Progress,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new (XhrCtor()!)();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.total);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The server's thumbnail field takes the 80×80 JPEG as a file part. */
function dataUrlToBlob(dataUrl: string): Blob {
  const [head, b64 = ''] = dataUrl.split(',');
  const mime = /data:([^;]+)/.exec(head ?? '')?.[1] ?? 'image/jpeg';
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Blob([bytes], { type: mime });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON, validated field by field
function uploadedFrom(d: any): UploadedFile {
  const r = d?.data && typeof d.data === 'object' && 'uid' in d.data ? d.data : d;
  if (!r || typeof r.uid !== 'string') throw new UploadError('upload:uploadFailed', 'no uid in answer');
  return {
    uid: r.uid,
    filename: r.filename,
    filesize: Number(r.filesize),
    w: Number(r.w),
    h: Number(r.h),
    thumbnail: r.thumbnail,
    sha256: r.sha256,
  };
}

interface UploadOptions {
  signal?: AbortSignal;
  thumbnail?: string;
  /** 0..100 */
  onProgress?: (percent: number) => void;
}

export interface WholeOptions extends UploadOptions {
  /**
   * Sent as Idempotency-Key (the card's id): the same file sent again after a reload cut off the answer
   * is answered the first upload's uid instead of being stored twice (server/services/uploads.ts).
   */
  onceKey?: string;
}

/** POST /web_api/v1/upload with the whole file; the answer is read at data.data (spec §7). */
export async function uploadWhole(
  blob: Blob,
  filename: string,
  target: UploadTarget,
  opts: WholeOptions = {},
): Promise<UploadedFile> {
  const form = new FormData();
  form.append('user_token', target.token);
  form.append('job', target.job);
  if (opts.thumbnail) form.append('thumbnail', dataUrlToBlob(opts.thumbnail), 'thumbnail.jpg');
  form.append('file', blob, filename);
  opts.onProgress?.(0);
  const env = await postForm(
    target.apiBase + UPLOAD_PATH,
    form,
    opts.signal,
    (l, t) => opts.onProgress?.(Math.min(99, (l / t) * 100)),
    opts.onceKey ? { 'idempotency-key': opts.onceKey } : {},
  );
  opts.onProgress?.(100);
  return uploadedFrom(env.data);
}

/** What the server already holds of a sliced upload; undefined when it no longer knows the uid. */
export async function sliceStatus(
  uid: string,
  target: UploadTarget,
  signal?: AbortSignal,
): Promise<{ total: number; received: number[] } | undefined> {
  // A plain form post: the status route reads its fields from the parsed body.
  const form = new URLSearchParams({ uid, user_token: target.token });
  try {
    const env = await postForm(target.apiBase + SLICE_STATUS_PATH, form, signal);
    return { total: Number(env.data.total_blob_num), received: (env.data.received as number[]).map(Number) };
  } catch (e) {
    if (e instanceof UploadError && e.key === 'upload:uploadFailed') return undefined;
    throw e;
  }
}

export interface SliceOptions extends UploadOptions {
  /** where an earlier attempt stopped */
  state?: SliceState;
  /** called after every acknowledged slice, so the caller can persist it before the next one */
  onAck?: (state: SliceState) => void | Promise<void>;
}

/** 5 MB slices, one in flight; the thumbnail rides on slice 1 and later slices carry the uid it returned. */
export async function uploadSliced(
  blob: Blob,
  filename: string,
  target: UploadTarget,
  opts: SliceOptions = {},
): Promise<UploadedFile> {
  const total = sliceCount(blob.size);
  let uid = opts.state?.uid;
  let acked = opts.state?.total === total ? [...opts.state.acked] : [];
  if (uid) {
    // The server is the truth about which slices arrived.
    const known = await sliceStatus(uid, target, opts.signal);
    if (known && known.total === total) acked = known.received.filter((n) => n >= 1 && n <= total);
    else {
      uid = undefined;
      acked = [];
    }
  } else acked = [];
  const report = (partial = 0) => opts.onProgress?.(Math.min(99, ((acked.length + partial) / total) * 100));
  report();
  const pending = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !acked.includes(n));
  // All slices acknowledged but the final answer was lost: send the last one again to get it.
  if (pending.length === 0) pending.push(total);
  for (const n of pending) {
    const form = new FormData();
    form.append('user_token', target.token);
    form.append('job', target.job);
    form.append('name', filename);
    form.append('blob_num', String(n));
    form.append('total_blob_num', String(total));
    if (uid) form.append('uid', uid);
    if (n === 1 && opts.thumbnail) form.append('thumbnail', dataUrlToBlob(opts.thumbnail), 'thumbnail.jpg');
    form.append('file', blob.slice((n - 1) * CHUNK_SIZE_BYTES, n * CHUNK_SIZE_BYTES), filename);
    const env = await postForm(target.apiBase + SLICE_PATH, form, opts.signal, (l, t) => report(l / t));
    const d = env.data ?? {};
    uid = String(d.uid ?? uid);
    acked = Array.isArray(d.received) ? d.received.map(Number) : [...new Set([...acked, n])];
    await opts.onAck?.({ uid, total, acked });
    report();
    if (d.done) {
      opts.onProgress?.(100);
      return uploadedFrom(d);
    }
  }
  throw new UploadError('upload:uploadFailed', 'server did not complete the sliced upload');
}
