/**
 * Budgets that keep one account or one address from taking what everyone shares (issue 48). The queue's
 * numbers are queueOrder.ts's; these are the rows and bytes a caller may add.
 */

const MB = 1024 * 1024;

/**
 * Bytes a client address group may upload without an account in one clock hour (whole files, slices
 * and upload_url; the default of the GUEST_BYTES_PER_HOUR setting). A guest keeps 200 MB; one address
 * took new guest tokens and wrote about 2.9 GB a minute before this.
 */
export const GUEST_BYTES_PER_HOUR = 500 * MB;

/** The window GUEST_BYTES_PER_HOUR counts in. */
export const GUEST_BYTES_WINDOW_MS = 60 * 60 * 1000;

/** Checkouts an account may hold open (not paid, not closed) from the last day at a time: a buyer needs one. */
export const OPEN_CHECKOUTS_MAX = 10;
export const OPEN_CHECKOUTS_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Saved workflows per account. The spec names the steps (3, 5 for Pro), the page size (10) and the name
 * length (50), not a count: 100 is ten pages of the workflow list.
 */
export const WORKFLOWS_MAX = 100;
