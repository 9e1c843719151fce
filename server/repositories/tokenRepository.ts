/** Guest and user tokens, keyed by SHA-256 of the token; and moving a guest's work to a user. */
import type { Db } from './db.js';
import type { TokensTable } from './schema.js';

export type TokenRow = TokensTable;

export class TokenRepository {
  constructor(private readonly db: Db) {}

  async insert(row: TokenRow): Promise<void> {
    await this.db.insertInto('tokens').values(row).execute();
  }

  find(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
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
    await this.db.updateTable('tokens').set({ bound_account_id: null }).where('bound_account_id', '=', accountId).where('kind', '=', 'guest').execute();
  }

  /** Every user token of the account (password change). */
  async deleteUserTokens(accountId: number): Promise<void> {
    await this.db.deleteFrom('tokens').where('account_id', '=', accountId).where('kind', '=', 'user').execute();
  }

  /** Keeps the newest `keep` user tokens of a session, so a browser reloading often cannot pile them up. */
  async trimSession(sessionHash: string, keep: number): Promise<void> {
    const old = await this.db.selectFrom('tokens').select('token_hash').where('session_hash', '=', sessionHash).orderBy('created_at', 'desc').orderBy('token_hash').offset(keep).limit(1000).execute();
    if (old.length) await this.db.deleteFrom('tokens').where('token_hash', 'in', old.map((r) => r.token_hash)).execute();
  }

  /** Drops tokens idle past their expiry. */
  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('tokens').where('expires_at', '<=', now).where('kind', '=', 'user').execute();
  }

  /** The guest's uploads, works and workflows become the user's. */
  async moveWork(from: number, to: number): Promise<{ uploads: number; jobs: number }> {
    const up = await this.db.updateTable('uploads').set({ account_id: to }).where('account_id', '=', from).executeTakeFirst();
    const jobs = await this.db.updateTable('jobs').set({ account_id: to }).where('account_id', '=', from).executeTakeFirst();
    await this.db.updateTable('workflows').set({ account_id: to }).where('account_id', '=', from).execute();
    return { uploads: Number(up.numUpdatedRows), jobs: Number(jobs.numUpdatedRows) };
  }
}
