/** Guest and user tokens, keyed by SHA-256 of the token; and moving a guest's work to a user. */
import { PROGRESS_COLUMNS, type ProgressRow } from './jobRepository.js';
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { Db } from './db.js';
import { Batcher } from './pollBatch.js';
import { PREPARED_MARK } from './postgres.js';
import type { Account, TokensTable } from './schema.js';

export type TokenRow = TokensTable;

/** A token row with the account it acts for, and (when asked) the account's work: one read, no cache. */
export interface TokenAccountRow {
  token: TokenRow;
  account: Account;
  /** the asked work when it belongs to that account; undefined when not asked, missing or someone else's */
  job?: ProgressRow;
}

const TOKEN_COLUMNS = [
  'token_hash',
  'kind',
  'account_id',
  'bound_account_id',
  'created_at',
  'expires_at',
  'session_hash',
] as const;
/** Placeholders of the statement built once; replaced by the real values on every call. */
const HASH_SLOT = '\u0000token_hash';
const TRANS_SLOT = '\u0000trans_id';
/** The hot statements, built once per database handle (a transaction is another handle). */
const COMPILED = new WeakMap<Db, Map<boolean, CompiledQuery>>();
/** The position of a row's key in a batched read (see POLL_BATCH_SQL). */
const ORDINAL = 'q_ord';
/** The joined row's names that are not the account's own columns. */
const ALIASED = new Set<string>([
  ...TOKEN_COLUMNS.map((c) => `t_${c}`),
  ...PROGRESS_COLUMNS.map((c) => `j_${c}`),
  ORDINAL,
]);

/**
 * The progress poll's read for many (token hash, trans_id) pairs at once (PostgreSQL): the same joins
 * and ownership rule as the single statement built in `compiled` (the work only when it belongs to the
 * account the token acts for), one row per pair that has a live token, tagged with the pair's
 * 1-based position so each caller gets its own row and nobody else's.
 */
const POLL_BATCH_SQL =
  `${PREPARED_MARK('token_account_job_batch')}select q.ord as "${ORDINAL}", "a".*, ` +
  [
    ...TOKEN_COLUMNS.map((c) => `"t"."${c}" as "t_${c}"`),
    ...PROGRESS_COLUMNS.map((c) => `"j"."${c}" as "j_${c}"`),
  ].join(', ') +
  ' from unnest($1::text[], $2::text[]) with ordinality as q(token_hash, trans_id, ord)' +
  ' inner join "tokens" as "t" on "t"."token_hash" = q.token_hash' +
  ' inner join "accounts" as "a" on "a"."id" = coalesce("t"."bound_account_id", "t"."account_id")' +
  ' left join "jobs" as "j" on "j"."trans_id" = q.trans_id and "j"."account_id" = "a"."id"';

interface PollKey {
  hash: string;
  transId: string;
}
/** One poll batcher per pool (PostgreSQL root handle only; a transaction reads alone). */
const POLL_BATCHERS = new WeakMap<Db, Batcher<PollKey, TokenAccountRow | undefined>>();

/** [column, its alias in the joined row] of the token and the work, built once. */
const TOKEN_ALIASES = TOKEN_COLUMNS.map((c) => [c, `t_${c}`] as const);
const PROGRESS_ALIASES = PROGRESS_COLUMNS.map((c) => [c, `j_${c}`] as const);

/** The joined row → token, account and (when read and found) the work. Plain loops: this runs on every poll. */
function splitRow(row: Record<string, unknown>, withJob: boolean): TokenAccountRow {
  const token: Record<string, unknown> = {};
  for (const [c, alias] of TOKEN_ALIASES) token[c] = row[alias];
  const account: Record<string, unknown> = {};
  for (const k in row) if (!ALIASED.has(k)) account[k] = row[k];
  const found = { token: token as unknown as TokenRow, account: account as unknown as Account };
  if (!withJob || row.j_trans_id === null || row.j_trans_id === undefined) return found;
  const job: Record<string, unknown> = {};
  for (const [c, alias] of PROGRESS_ALIASES) job[c] = row[alias];
  return { ...found, job: job as unknown as ProgressRow };
}

export class TokenRepository {
  constructor(private readonly db: Db) {}

  async insert(row: TokenRow): Promise<void> {
    await this.db.insertInto('tokens').values(row).execute();
  }

  find(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /**
   * The token by its hash joined to the account it acts for (a bound guest token: the bound account)
   * and, with `transId`, to that account's work (the progress poll): three primary-key lookups in one
   * round trip. Read on every request, never cached, so a revoked or expired token stops at once in
   * every API process. The statement is built once per database handle and runs as a prepared
   * statement on PostgreSQL (planned once per connection, see PREPARED_MARK). On PostgreSQL, progress
   * polls asked together are read by one statement (POLL_BATCH_SQL, see pollBatch.ts), each still
   * by a statement that started after it was asked.
   */
  async findWithAccount(hash: string, transId?: string): Promise<TokenAccountRow | undefined> {
    const withJob = transId !== undefined;
    const batcher = withJob ? this.pollBatcher(transId) : undefined;
    if (batcher) return batcher.load({ hash, transId: transId! });
    const q = this.compiled(withJob);
    const params = q.parameters.map((p) => (p === HASH_SLOT ? hash : p === TRANS_SLOT ? transId : p));
    const row = (await this.db.executeQuery<Record<string, unknown>>({ ...q, parameters: params })).rows[0];
    return row ? splitRow(row, withJob) : undefined;
  }

  /**
   * The batcher that answers progress polls of this pool together (PostgreSQL, outside a
   * transaction); undefined where a poll reads alone: SQLite (synchronous, nothing to coalesce), a
   * transaction, and a trans_id PostgreSQL would refuse as text (a NUL): its statement fails, and it
   * must fail alone rather than take the polls batched with it down.
   */
  private pollBatcher(transId: string): Batcher<PollKey, TokenAccountRow | undefined> | undefined {
    if (
      this.db.isTransaction ||
      transId.includes('\u0000') ||
      !(this.db.getExecutor().adapter instanceof PostgresAdapter)
    )
      return undefined;
    let b = POLL_BATCHERS.get(this.db);
    if (!b) POLL_BATCHERS.set(this.db, (b = new Batcher((keys) => this.readPolls(keys))));
    return b;
  }

  /** One statement for a batch of polls: the i-th answer for the i-th key, undefined where the token is unknown. */
  private async readPolls(keys: PollKey[]): Promise<(TokenAccountRow | undefined)[]> {
    const q = CompiledQuery.raw(POLL_BATCH_SQL, [keys.map((k) => k.hash), keys.map((k) => k.transId)]);
    const rows = (await this.db.executeQuery<Record<string, unknown>>(q)).rows;
    const out: (TokenAccountRow | undefined)[] = new Array(keys.length).fill(undefined);
    for (const row of rows) {
      const i = Number(row[ORDINAL]) - 1;
      if (!Number.isInteger(i) || i < 0 || i >= keys.length)
        throw new Error(`poll batch row with position ${String(row[ORDINAL])} of ${keys.length}`);
      // as the single read takes its first row (token_hash and trans_id are primary keys: at most one)
      out[i] ??= splitRow(row, true);
    }
    return out;
  }

  /** Statements and keys of this pool's poll batcher so far (undefined before its first batch, and on SQLite). */
  pollBatchStats(): Readonly<{ batches: number; keys: number; largest: number }> | undefined {
    return POLL_BATCHERS.get(this.db)?.stats;
  }

  private compiled(withJob: boolean): CompiledQuery {
    let forDb = COMPILED.get(this.db);
    if (!forDb) COMPILED.set(this.db, (forDb = new Map()));
    let q = forDb.get(withJob);
    if (q) return q;
    const base = this.db
      .selectFrom('tokens as t')
      .innerJoin('accounts as a', (j) =>
        j.on((eb) => eb('a.id', '=', eb.fn.coalesce('t.bound_account_id', 't.account_id'))),
      )
      .selectAll('a')
      .select(TOKEN_COLUMNS.map((c) => `t.${c} as t_${c}` as const))
      .where('t.token_hash', '=', HASH_SLOT);
    const c = withJob
      ? base
          .leftJoin('jobs as j', (j) => j.on('j.trans_id', '=', TRANS_SLOT).onRef('j.account_id', '=', 'a.id'))
          .select(PROGRESS_COLUMNS.map((col) => `j.${col} as j_${col}` as const))
          .compile()
      : base.compile();
    q = { ...c, sql: `${PREPARED_MARK(withJob ? 'token_account_job' : 'token_account')}${c.sql}` };
    forDb.set(withJob, q);
    return q;
  }

  async setExpiry(hash: string, expiresAt: number): Promise<void> {
    await this.db.updateTable('tokens').set({ expires_at: expiresAt }).where('token_hash', '=', hash).execute();
  }

  async delete(hash: string): Promise<void> {
    await this.db.deleteFrom('tokens').where('token_hash', '=', hash).execute();
  }

  async bindTo(hash: string, accountId: number | null): Promise<void> {
    await this.db.updateTable('tokens').set({ bound_account_id: accountId }).where('token_hash', '=', hash).execute();
  }

  /** User tokens handed to a session (logout ends them with it). */
  async deleteForSession(sessionHash: string): Promise<void> {
    await this.db.deleteFrom('tokens').where('session_hash', '=', sessionHash).where('kind', '=', 'user').execute();
  }

  /** Guest tokens acting for the account go back to their own guest accounts. */
  async unbindGuests(accountId: number): Promise<void> {
    await this.db
      .updateTable('tokens')
      .set({ bound_account_id: null })
      .where('bound_account_id', '=', accountId)
      .where('kind', '=', 'guest')
      .execute();
  }

  /** Every user token of the account (password change). */
  async deleteUserTokens(accountId: number): Promise<void> {
    await this.db.deleteFrom('tokens').where('account_id', '=', accountId).where('kind', '=', 'user').execute();
  }

  /** Keeps the newest `keep` user tokens of a session, so a browser reloading often cannot pile them up. */
  async trimSession(sessionHash: string, keep: number): Promise<void> {
    const old = await this.db
      .selectFrom('tokens')
      .select('token_hash')
      .where('session_hash', '=', sessionHash)
      .orderBy('created_at', 'desc')
      .orderBy('token_hash')
      .offset(keep)
      .limit(1000)
      .execute();
    if (old.length)
      await this.db
        .deleteFrom('tokens')
        .where(
          'token_hash',
          'in',
          old.map((r) => r.token_hash),
        )
        .execute();
  }

  /** Drops tokens idle past their expiry. */
  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('tokens').where('expires_at', '<=', now).where('kind', '=', 'user').execute();
  }

  /** The guest's uploads, works and workflows become the user's. */
  async moveWork(from: number, to: number): Promise<{ uploads: number; jobs: number }> {
    const up = await this.db
      .updateTable('uploads')
      .set({ account_id: to })
      .where('account_id', '=', from)
      .executeTakeFirst();
    const jobs = await this.db
      .updateTable('jobs')
      .set({ account_id: to })
      .where('account_id', '=', from)
      .executeTakeFirst();
    await this.db.updateTable('workflows').set({ account_id: to }).where('account_id', '=', from).execute();
    return { uploads: Number(up.numUpdatedRows), jobs: Number(jobs.numUpdatedRows) };
  }
}
