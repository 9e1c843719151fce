/**
 * Operator commands for support work, against the database the server uses (same DATA_DIR /
 * DATABASE_URL environment):
 *
 *   npm run admin -- show <email>
 *   npm run admin -- grant <email> <basic|pro> [days=30]   put the account on a paid plan with its credits
 *   npm run admin -- renew <email> [days=30]               another period of the account's paid plan
 *   npm run admin -- expire <email>                        end the plan now: level expired, 0 credits
 *   npm run admin -- credits <email> <n>                   add n credits (a ledger grant)
 *   npm run admin -- api-plan <email> <api plan>           grant an API credit pack (its credits; the account may hold an API token)
 *   npm run admin -- messages [n=50]                       the contact form's latest messages
 *   npm run admin -- expire-due                            expire every plan whose end date has passed
 *
 * Prints the account's licence afterwards as JSON. Exit code 2 on a usage error, 1 on failure.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { API_PLANS, apiPlanNamed } from '../src/shared/domain/apiPlans.js';
import { PLAN_PERIOD_DAYS } from '../src/shared/domain/constants.js';
import { creditsLeft } from '../src/shared/domain/plans.js';
import { createContext } from '../server/bootstrap.js';
import { loadConfig } from '../server/config.js';
import type { AppContext } from '../server/context.js';
import type { Account } from '../server/repositories/schema.js';

export const USAGE = `usage: npm run admin -- <command>
  show <email>
  messages [n=50]
  grant <email> <basic|pro> [days=${PLAN_PERIOD_DAYS}]
  renew <email> [days=${PLAN_PERIOD_DAYS}]
  expire <email>
  credits <email> <n>
  api-plan <email> <${API_PLANS.map((p) => p.name).join('|')}>
  expire-due`;

export class UsageError extends Error {}

function summary(ctx: AppContext, a: Account) {
  return {
    id: a.id,
    email: a.email,
    level: ctx.services.license.levelOf(a),
    pid: a.pid,
    plan_expires_at: a.plan_expires_at === null ? null : new Date(a.plan_expires_at).toISOString(),
    max_num: a.max_num,
    used_num: a.used_num,
    left_credits: creditsLeft(a.max_num, a.used_num),
    compress_left: creditsLeft(a.compress_max, a.compress_used),
  };
}

async function withApiPacks(ctx: AppContext, a: Account) {
  return { ...summary(ctx, a), api_plan_customer: await ctx.services.apiTokens.hasApiPack(a.id) };
}

const days = (raw: string | undefined) => {
  if (raw === undefined) return PLAN_PERIOD_DAYS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 3660) throw new UsageError('days must be an integer from 1 to 3660');
  return n;
};

/** Runs one command with an open context; returns what to print. */
export async function runAdmin(ctx: AppContext, argv: string[]): Promise<unknown> {
  const [cmd, email, ...rest] = argv;
  const { accounts, plans, credits } = ctx.services;
  if (cmd === 'expire-due') return { expired: await plans.expireDue() };
  // The contact form's messages, newest first (the second argument, when given, is how many).
  if (cmd === 'messages')
    return { messages: await ctx.services.contact.latest(Number(email) > 0 ? Number(email) : 50) };
  if (!cmd || !email) throw new UsageError(USAGE);
  const found = await accounts.byEmail(email);
  if (!found || found.kind !== 'user') throw new UsageError(`no registered account with the email ${email}`);
  const id = found.id;
  switch (cmd) {
    case 'show':
      return summary(ctx, found);
    case 'grant': {
      const level = rest[0];
      if (level !== 'basic' && level !== 'pro') throw new UsageError('grant needs a plan: basic or pro');
      return summary(ctx, await plans.grantPlan(id, level, days(rest[1])));
    }
    case 'renew':
      return summary(ctx, await plans.renewPlan(id, days(rest[0])));
    case 'expire':
      return summary(ctx, await plans.expirePlan(id));
    case 'credits': {
      const n = Number(rest[0]);
      if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new UsageError('credits needs a positive whole number');
      await credits.grant(id, n, `admin:${id}:${Date.now()}:${randomBytes(4).toString('hex')}`);
      return summary(ctx, await accounts.byId(id));
    }
    case 'api-plan': {
      const plan = apiPlanNamed(rest[0]);
      if (!plan) throw new UsageError(`api-plan needs a pack: ${API_PLANS.map((p) => p.name).join(', ')}`);
      await ctx.services.apiTokens.grantPack(id, plan, `admin:${id}:${Date.now()}:${randomBytes(4).toString('hex')}`);
      return withApiPacks(ctx, await accounts.byId(id));
    }
    default:
      throw new UsageError(USAGE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // The operator's process never runs works: the server's runner does.
  const ctx = await createContext(loadConfig(process.env, { runJobs: false, logLevel: 'silent' }));
  let code = 0;
  try {
    console.log(JSON.stringify(await runAdmin(ctx, process.argv.slice(2)), null, 2));
  } catch (e) {
    code = e instanceof UsageError ? 2 : 1;
    console.error(e instanceof Error ? e.message : String(e));
  } finally {
    await ctx.close();
  }
  process.exit(code);
}
