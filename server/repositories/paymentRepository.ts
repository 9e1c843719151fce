/** Checkouts opened through a payment provider and the provider events applied (tables of 004/005). */
import type { Selectable } from 'kysely';
import type { Db } from './db.js';
import type { PaymentCheckoutsTable, PaymentEventsTable } from './schema.js';

export type CheckoutRow = Selectable<PaymentCheckoutsTable>;

export class PaymentRepository {
  constructor(private readonly db: Db) {}

  /** The account's checkouts still open that were opened since `since`. */
  async countOpen(accountId: number, since: number): Promise<number> {
    const r = await this.db
      .selectFrom('payment_checkouts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'open')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertCheckout(row: Omit<CheckoutRow, 'provider_ref' | 'url'>): Promise<void> {
    await this.db.insertInto('payment_checkouts').values(row).execute();
  }

  async setProviderSession(id: string, ref: string | null, url: string): Promise<void> {
    await this.db.updateTable('payment_checkouts').set({ provider_ref: ref, url }).where('id', '=', id).execute();
  }

  ownedCheckout(id: string, accountId: number): Promise<CheckoutRow | undefined> {
    return this.db
      .selectFrom('payment_checkouts')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  providerCheckout(id: string, provider: string): Promise<CheckoutRow | undefined> {
    return this.db
      .selectFrom('payment_checkouts')
      .selectAll()
      .where('id', '=', id)
      .where('provider', '=', provider)
      .executeTakeFirst();
  }

  /** open → paid/cancelled; false when the checkout was no longer open. */
  async close(id: string, status: 'paid' | 'cancelled', now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('payment_checkouts')
      .set(status === 'paid' ? { status, paid_at: now } : { status })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Records an event id once; false when it was recorded before (a replay). */
  async recordEvent(row: Selectable<PaymentEventsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('payment_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
