/** Login sessions, keyed by the SHA-256 of the cookie value (the value itself is never stored). */
import type { Db } from './db.js';

export interface SessionRow {
  id_hash: string;
  account_id: number;
  created_at: number;
  expires_at: number;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  find(idHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  }

  async setExpiry(idHash: string, expiresAt: number): Promise<void> {
    await this.db.updateTable('sessions').set({ expires_at: expiresAt }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Every session of the account except `keep` (a password change keeps the caller's new one). */
  async deleteForAccount(accountId: number, keep?: string): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('account_id', '=', accountId);
    if (keep) q = q.where('id_hash', '!=', keep);
    await q.execute();
  }
}
