/**
 * API tokens (one per account, keyed by SHA-256 of the token) and the API credit packs granted to an
 * account (migration 009). The tables are declared here, beside their only users: the rest of the
 * server reaches them through ApiTokenService. Portable across SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from './db.js';
import type { Account, Database } from './schema.js';

interface ApiTokensTable {
  account_id: number;
  /** SHA-256 hex of the token; the token itself is never stored */
  token_hash: string;
  /** the token's last four characters (the account page shows pxm_…abcd) */
  hint: string;
  created_at: number;
  last_used_at: number | null;
  /** 'YYYY-MM' (UTC) of the month calls_month counts */
  calls_month_key: string;
  calls_month: number;
  /** when a reset last replaced the token; null when it was only created (migration 011) */
  reset_at: number | null;
}

export interface ApiCreditGrantsTable {
  /** the grant's reference (the checkout id, or the operator's grant id): each is applied once */
  ref: string;
  account_id: number;
  api_plan: string;
  credits: number;
  created_at: number;
}

// a type alias (not an interface): withTables needs an indexable record
type ApiTables = {
  api_tokens: ApiTokensTable;
  api_credit_grants: ApiCreditGrantsTable;
};
type ApiDb = Kysely<Database & ApiTables>;

export type ApiTokenRow = ApiTokensTable;

/** A token with the account it acts for and whether that account was ever granted an API pack. */
export interface ApiTokenAccountRow {
  token: ApiTokenRow;
  account: Account;
  hasApiPack: boolean;
}

const TOKEN_COLUMNS = [
  'account_id',
  'token_hash',
  'hint',
  'created_at',
  'last_used_at',
  'calls_month_key',
  'calls_month',
  'reset_at',
] as const;

/** The month a call counts in: 'YYYY-MM' in UTC. */
export const monthKey = (at: number) => new Date(at).toISOString().slice(0, 7);

export class ApiTokenRepository {
  private readonly db: ApiDb;

  constructor(db: Db) {
    this.db = db.withTables<ApiTables>();
  }

  byAccount(accountId: number): Promise<ApiTokenRow | undefined> {
    return this.db.selectFrom('api_tokens').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  /**
   * The token by its hash, its account and whether the account holds an API pack: one read on every
   * API call, never cached, so a reset token stops at once in every API process and DB mode.
   */
  async findWithAccount(hash: string): Promise<ApiTokenAccountRow | undefined> {
    const row = await this.db
      .selectFrom('api_tokens as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .selectAll('a')
      .select(TOKEN_COLUMNS.map((c) => `t.${c} as t_${c}` as const))
      .select((eb) =>
        eb
          .exists(eb.selectFrom('api_credit_grants as g').select('g.ref').whereRef('g.account_id', '=', 't.account_id'))
          .as('has_api_pack'),
      )
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    const r = row as Record<string, unknown>;
    const token: Record<string, unknown> = {};
    const account: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) {
      if (k === 'has_api_pack') continue;
      if (k.startsWith('t_') && (TOKEN_COLUMNS as readonly string[]).includes(k.slice(2))) token[k.slice(2)] = v;
      else account[k] = v;
    }
    // SQLite answers EXISTS with 0/1, PostgreSQL with a boolean
    return {
      token: token as unknown as ApiTokenRow,
      account: account as unknown as Account,
      hasApiPack: Boolean(Number(r.has_api_pack) || r.has_api_pack === true),
    };
  }

  /**
   * The account's first token; false when the account already has one (a concurrent create won).
   * `asReset`: created by a reset, so it starts the reset guard like any reset (reset_at = now).
   */
  async create(accountId: number, hash: string, hint: string, now: number, asReset = false): Promise<boolean> {
    const r = await this.db
      .insertInto('api_tokens')
      .values({
        account_id: accountId,
        token_hash: hash,
        hint,
        created_at: now,
        last_used_at: null,
        calls_month_key: '',
        calls_month: 0,
        reset_at: asReset ? now : null,
      })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * A new token in place of `oldHash`, only while it is still the account's token: one statement, so of
   * resets racing from the same old token exactly one replaces it (PostgreSQL re-reads the row after a
   * concurrent update and finds the hash gone; SQLite runs one write at a time). Answers whether it did.
   */
  async replaceIf(accountId: number, oldHash: string, hash: string, hint: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('api_tokens')
      .set({
        token_hash: hash,
        hint,
        created_at: now,
        reset_at: now,
        last_used_at: null,
        calls_month_key: '',
        calls_month: 0,
      })
      .where('account_id', '=', accountId)
      .where('token_hash', '=', oldHash)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** One call made with the token: last use now, and one more call this month (the count restarts in a new month). */
  async recordUse(hash: string, now: number): Promise<void> {
    const key = monthKey(now);
    await this.db
      .updateTable('api_tokens')
      .set({
        last_used_at: now,
        calls_month: sql<number>`CASE WHEN calls_month_key = ${key} THEN calls_month + 1 ELSE 1 END`,
        calls_month_key: key,
      })
      .where('token_hash', '=', hash)
      .execute();
  }

  /** Records an API pack grant once per `ref`; false when that ref was granted before (nothing to do). */
  async recordGrant(grant: ApiCreditGrantsTable): Promise<boolean> {
    const r = await this.db
      .insertInto('api_credit_grants')
      .values(grant)
      .onConflict((oc) => oc.column('ref').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async hasApiPack(accountId: number): Promise<boolean> {
    return !!(await this.db
      .selectFrom('api_credit_grants')
      .select('ref')
      .where('account_id', '=', accountId)
      .limit(1)
      .executeTakeFirst());
  }
}
