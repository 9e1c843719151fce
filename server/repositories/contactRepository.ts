/** Contact-form messages (table contact_messages). */
import type { Db } from './db.js';

export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  locale: string;
  created_at: number;
}

export class ContactRepository {
  constructor(private readonly db: Db) {}

  async insert(m: Omit<ContactMessage, 'id'>): Promise<number> {
    const r = await this.db.insertInto('contact_messages').values(m).executeTakeFirst();
    return Number(r.insertId ?? 0);
  }

  /** Newest first. */
  async latest(limit: number): Promise<ContactMessage[]> {
    return (await this.db
      .selectFrom('contact_messages')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()) as ContactMessage[];
  }
}
