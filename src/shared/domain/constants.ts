/**
 * Every number of the spec (§9 and the tables of §3–§6) lives here, once.
 * Client and server both import it; nothing else may restate these values.
 */
export const POLL_INTERVAL_MS = 2000;
export const PROCESS_TIMEOUT_MS = 300_000;
export const LOCAL_STORAGE_EXPIRY_MS = 86_400_000;
export const UPLOADED_CACHE_EXPIRY_MS = 24 * 60 * 60 * 1000;

export const WORKFLOW_PAGE_SIZE = 10;
export const WORKFLOW_FIRST_PAGE = 1;
export const WORKFLOW_NAME_MAX = 50;
export const WORKFLOW_STEPS_PRO = 5;
export const WORKFLOW_STEPS_DEFAULT = 3;

export const UPLOAD_QUEUE_MAX = 5;
export const UPLOAD_PER_TYPE_MAX = 10;
export const BATCH_INPUT_MAX = 20;
export const UPLOAD_LIST_LIMIT = 1000;
export const CHUNK_SIZE_BYTES = 5 * 1024 * 1024;
export const THUMBNAIL_SIZE = 80;
export const WHOLE_FILE_UPLOADS_IN_FLIGHT = 2;
export const CHUNK_UPLOADS_IN_FLIGHT = 1;

export const GUEST_TOKEN_COOKIE_DAYS = 3650;
export const GUEST_CREDITS_COOKIE_DAYS = 365;
export const FIRST_FLAGS_COOKIE_DAYS = 365;
export const LOW_CREDIT_WARNING = 4;

export const PLAN_ID_REGISTER = 0;
export const PLAN_ID_BASIC = 11042;
export const PLAN_ID_PRO = 11043;

export const EXPIRED_NOTICE_MS = 3000;
export const SAMPLE_SIMULATION_MS = 4000;
export const FIRST_VISIT_PREVIEW_DELAY_MS = 1000;
export const TAB_SWITCH_AFTER_START_MS = 1000;
export const GUEST_AUTO_SELECT_MS = 2000;
export const DROP_OVERLAY_HIDE_MS = 3000;
export const PREVIEW_BEFORE_DELAY_MS = 200;
export const PREVIEW_AFTER_DELAY_MS = 500;
export const CREDIT_REFRESH_AFTER_BULK_MS = 1000;
export const TOKEN_RETRY_MS = 100;

export const PREVIEW_MAX_SIDE_PX = 18_000;
/**
 * The most pixels an upload may have before anything is done with it (ours): the compressor keeps
 * this many (the server's compress limit), every other feature shrinks the image to its plan first.
 */
export const SOURCE_MAX_MEGAPIXELS = 100;
/** Largest side of an enlarged result (ours, not the spec's: JPEG allows 65535, but memory and the 5-minute job limit do not). */
export const ENLARGE_MAX_SIDE_PX = 16_384;
export const PREVIEW_THUMB_BOX = { width: 304, height: 190 } as const;
export const PREVIEW_MOVER_DEFAULT = { width: 40, height: 26 } as const;
export const FILENAME_SHORTEN_THRESHOLD = 20;
export const FILENAME_KEEP_EACH_SIDE = 10;
/** Longest stored upload filename, extension included (ours: keeps names readable in lists and headers). */
export const FILENAME_MAX_CHARS = 120;

export const DEFAULT_COMPRESS_QUALITY = 50;
export const MATTING_DEFAULT_RESCALE = 532;

/** Products of spec §3; prices per currency (JPY price chosen by us, documented in the README). */
export const PRODUCTS = [
  { id: 606836, level: 'basic', price: { USD: 9.9, EUR: 9.9, JPY: 1500 } },
  { id: 606838, level: 'pro', price: { USD: 19.9, EUR: 19.9, JPY: 3000 } },
] as const;

/** One paid plan period ("per 1M" read as one month); a purchase or renewal adds this to the expiry. */
export const PLAN_PERIOD_DAYS = 30;
