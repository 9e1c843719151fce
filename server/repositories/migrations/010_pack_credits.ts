import { sql, type Kysely } from 'kysely';

/**
 * accounts.pack_credits: the API pack credits the account still owns (docs/api.md). Plan changes
 * keep them (plan credits are spent first, pack credits last), so a plan transition carries
 * min(credits left, pack_credits) into the new balance and sets pack_credits to that.
 *
 * Existing accounts: the packs granted since the account's last plan change (a `plan:` or
 * `expire:` ledger row; earlier packs went with that change), capped at the credits left, the
 * same rule a transition applies from now on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('pack_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    UPDATE accounts SET pack_credits = (
      SELECT COALESCE(SUM(g.credits), 0) FROM api_credit_grants g
      WHERE g.account_id = accounts.id
        AND g.created_at >= COALESCE((
          SELECT MAX(l.created_at) FROM credit_ledger l
          WHERE l.account_id = accounts.id AND (l.ref LIKE 'plan:%' OR l.ref LIKE 'expire:%')
        ), 0)
    )
    WHERE EXISTS (SELECT 1 FROM api_credit_grants g WHERE g.account_id = accounts.id)
  `.execute(db);
  await sql`
    UPDATE accounts SET pack_credits = CASE
      WHEN max_num - used_num >= pack_credits THEN pack_credits
      WHEN max_num > used_num THEN max_num - used_num
      ELSE 0 END
    WHERE pack_credits > 0
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('pack_credits').execute();
}
