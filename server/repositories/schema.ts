/** Database tables as Kysely sees them. Timestamps are epoch milliseconds; booleans are 0/1. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

interface AccountsTable {
  id: Generated<number>;
  kind: 'guest' | 'user';
  email: string | null;
  password_hash: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  occupation: Generated<string>;
  /** plan id: 0 register, 11042 basic, 11043 pro (guests keep 0) */
  pid: Generated<number>;
  /** ms; null = no expiry */
  plan_expires_at: number | null;
  /** set by an operator or the credits-exhausted transition */
  is_expired: Generated<number>;
  max_num: Generated<number>;
  used_num: Generated<number>;
  compress_max: Generated<number>;
  compress_used: Generated<number>;
  created_at: number;
  updated_at: number;
  /** free text when occupation is 'other' (002) */
  occupation_other: Generated<string>;
  /** interface language and price currency chosen by the user (002) */
  locale: Generated<string>;
  currency: Generated<string>;
  /** occupation survey answers, a JSON array of occupations (004) */
  survey_json: Generated<string>;
  /** API pack credits still owned: plan changes carry min(credits left, this) over (010, docs/api.md) */
  pack_credits: Generated<number>;
}

export interface TokensTable {
  /** SHA-256 hex of the token (005); the token itself is never stored */
  token_hash: string;
  kind: 'guest' | 'user';
  account_id: number;
  /** a guest token bound to a logged-in account resolves to that account until unbound */
  bound_account_id: number | null;
  created_at: number;
  /** sliding idle expiry, ms (005) */
  expires_at: number;
  /** the session a user token was handed to; ending the session revokes it (005) */
  session_hash: string | null;
}

interface SessionsTable {
  /** SHA-256 hex of the pixmill_session cookie value (005) */
  id_hash: string;
  account_id: number;
  created_at: number;
  expires_at: number;
}

export interface UploadsTable {
  uid: string;
  account_id: number;
  filename: string;
  filesize: number;
  w: Generated<number>;
  h: Generated<number>;
  format: 'jpeg' | 'png';
  /** the job type the upload was made for (spec: upload carries `job`) */
  job: Generated<string>;
  /** working copy: auto-oriented, metadata stripped; what engines read */
  blob_key: string | null;
  /** the bytes exactly as received (byte-identical reassembly of slices) */
  original_key: string | null;
  /** sha256 hex of the original bytes */
  sha256: string | null;
  thumb_key: string | null;
  /** receiving: slices still missing; assembling: last slice in, being validated; ready: stored and validated */
  status: 'receiving' | 'assembling' | 'ready';
  total_blob_num: Generated<number>;
  received_bytes: Generated<number>;
  source_url: string | null;
  created_at: number;
  deleted_at: number | null;
  /** when retention removed its blobs (005) */
  expired_at: Generated<number | null>;
}

interface UploadChunksTable {
  uid: string;
  blob_num: number;
  size: number;
  created_at: number;
  /** where this slice's bytes are (005); null = the older key derived from uid and blob_num */
  blob_key: string | null;
}

interface JobsTable {
  trans_id: string;
  account_id: number;
  uid: string;
  /** module name, preset name or 'workflow' */
  job: string;
  is_workflow: Generated<number>;
  steps_json: string;
  zoom_type: string | null;
  status: 'queued' | 'running' | 'finished' | 'failed';
  progress: Generated<number>;
  step_index: Generated<number>;
  attempts: Generated<number>;
  error: string | null;
  result_key: string | null;
  result_format: string | null;
  result_w: number | null;
  result_h: number | null;
  /** JSON map of extra outputs (psd, zoom variants) → blob key */
  extras_json: string | null;
  thumbsup: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** the runner holding a running work (migration 003) */
  runner_id: string | null;
  /** ms; refreshed by that runner while the work runs — a stale one means the runner died */
  heartbeat_at: number | null;
  /** when retention removed the result blobs (005) */
  expired_at: Generated<number | null>;
  /** the path a finished work's enlargement took: net, fast_net or resized (015, src/shared/domain/enlargePath.ts) */
  enlarge_path: Generated<string | null>;
  /** where the work stands in the queue, 0 the front (012, src/shared/domain/queueOrder.ts) */
  queue_class: Generated<number>;
  /** a guest work's address group (012, server/clientAddress.ts); null for accounts' works */
  client_key: string | null;
}

/** Bytes uploaded without an account per client address group and clock hour (014). */
interface AddressBudgetsTable {
  client_key: string;
  window_start: number;
  bytes: number;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: number;
  /** trans_id for charge/refund; an operator reference for grants */
  ref: string;
  kind: 'charge' | 'refund' | 'grant' | 'compress_charge' | 'compress_refund' | 'expire';
  amount: number;
  created_at: number;
}

interface WorkflowsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** flows as stored: [{name, config: JSON string}] */
  flows_json: string;
  active: number;
  created_at: number;
  updated_at: number;
}

interface EventsTable {
  id: Generated<number>;
  account_id: number | null;
  /** credit-transform, credit-upload, credit-download, or an analytics event name */
  kind: string;
  payload_json: string;
  created_at: number;
}

interface DownloadBundlesTable {
  id: string;
  account_id: number;
  trans_ids_json: string;
  created_at: number;
}

/** Addresses that asked for no more marketing mail (002). */
interface MailOptoutsTable {
  email: string;
  created_at: number;
}

/** Per-account promotion records (002): share_code, share_bind:<type>, checkin (key = UTC day), count_down. */
interface PromotionsTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  key: Generated<string>;
  value: Generated<string>;
  created_at: number;
}

/** A checkout opened through a payment provider (004). */
export interface PaymentCheckoutsTable {
  id: string;
  account_id: number;
  provider: string;
  product_id: number;
  level: string;
  amount_minor: number;
  currency: string;
  status: 'open' | 'paid' | 'cancelled';
  source: string | null;
  medium: string | null;
  created_at: number;
  paid_at: number | null;
  /** the provider's own id (Stripe Checkout Session id) and where the browser pays (005) */
  provider_ref: Generated<string | null>;
  url: Generated<string | null>;
}

/** Failed logins per email (005): the per-account lockout that works across API processes. */
export interface LoginThrottleTable {
  email: string;
  failures: Generated<number>;
  window_start: number;
  locked_until: Generated<number>;
  lockouts: Generated<number>;
  updated_at: number;
}

/** A verified provider webhook event, applied once (004). */
export interface PaymentEventsTable {
  id: string;
  provider: string;
  type: string;
  account_id: number | null;
  checkout_id: string | null;
  payload_json: string;
  created_at: number;
}

/** A periodic task's lease (005): only the holder runs it until expires_at. */
interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  locale: string;
  created_at: number;
}

/** this server's measured seconds per input MP per engine (016, src/shared/domain/estimate.ts) */
interface EngineRatesTable {
  rate_key: string;
  s_per_mp: number;
  samples: number;
  updated_at: number;
}

export interface Database {
  engine_rates: EngineRatesTable;
  accounts: AccountsTable;
  tokens: TokensTable;
  sessions: SessionsTable;
  uploads: UploadsTable;
  upload_chunks: UploadChunksTable;
  jobs: JobsTable;
  address_budgets: AddressBudgetsTable;
  credit_ledger: CreditLedgerTable;
  workflows: WorkflowsTable;
  events: EventsTable;
  download_bundles: DownloadBundlesTable;
  mail_optouts: MailOptoutsTable;
  promotions: PromotionsTable;
  payment_checkouts: PaymentCheckoutsTable;
  payment_events: PaymentEventsTable;
  login_throttle: LoginThrottleTable;
  leases: LeasesTable;
  contact_messages: ContactMessagesTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type Upload = Selectable<UploadsTable>;
export type Job = Selectable<JobsTable>;
export type Workflow = Selectable<WorkflowsTable>;
