/**
 * Developer API tokens (docs/api.md): one per registered account (free ones too: free previews, full size
 * with the account's credits). A token is 256 random bits shown once, at creation; only its SHA-256 is stored
 * (like the user and guest tokens). The token acts as its account on the calls auth.ts lists
 * (API_TOKEN_ROUTES) and nowhere else; it is read from the database on every call, so a reset
 * token stops at once in every process. API packs add credits to the account's one balance, which
 * every processed image draws on through the JobService, whoever started it; plan credits go first,
 * and plan changes keep the pack credits still owned (accounts.pack_credits, PlanService).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  API_PLAN_LEVEL,
  API_TOKEN_PREFIX,
  API_TOKEN_RATE_LIMIT_PER_MINUTE,
  maskApiToken,
  type ApiEntitlement,
  type ApiPlan,
} from '../../src/shared/domain/apiPlans.js';
import type { ApiTokenView } from '../../src/shared/schemas/apiTokens.js';
import { creditsLeft, type Level } from '../../src/shared/domain/plans.js';
import { refused, unauthorized } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import { ApiTokenRepository, monthKey, type ApiTokenRow } from '../repositories/apiTokenRepository.js';
import * as ledger from '../repositories/creditRepository.js';
import type { Db } from '../repositories/db.js';
import type { Account } from '../repositories/schema.js';
import type { ServiceBase } from './base.js';
import type { WebhookService } from './webhooks.js';
import type { LicenseService } from './license.js';
import type { PlanService } from './plans.js';
import { packCreditsOwned } from './plans.js';
import type { Principal } from './tokens.js';
import { countFreePreviews } from '../repositories/apiPreviewRepository.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { license: LicenseService; plans: PlanService; webhooks: WebhookService } };

/** `pxm_` and 43 base64url characters (32 random bytes). */
const API_TOKEN_SHAPE = /^pxm_[A-Za-z0-9_-]{43}$/;
const newApiToken = () => `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
export const apiTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
export const isApiTokenShape = (t: unknown): t is string => typeof t === 'string' && API_TOKEN_SHAPE.test(t);

/** Resets of one account this close together are one reset: the first answers the new token, the later ones a conflict. */
const RESET_GUARD_MS = 10_000;

/** A principal that came from an API token (auth.ts keeps it for the request). */
export interface ApiPrincipal extends Principal {
  apiTokenHash: string;
}

/** What a registered account's key rests on (every registered account may hold one). */
export function entitlementOf(level: Level, hasApiPack: boolean): ApiEntitlement {
  if (level === 'pro') return 'pro';
  return hasApiPack ? 'api_plan' : 'free';
}

export class ApiTokenService {
  private readonly repo: ApiTokenRepository;

  constructor(private readonly deps: Deps) {
    this.repo = new ApiTokenRepository(deps.db);
  }

  /** Signed in (a user token of a registered account, never an API token); else code 6. */
  private async entitled(p: Principal): Promise<ApiEntitlement> {
    if (!p.logged || 'apiTokenHash' in p) throw unauthorized();
    return entitlementOf(p.level, await this.repo.hasApiPack(p.accountId));
  }

  /** POST api_token/get: the caller's token, created on the first call (then shown in full, once); with create: false only an existing one's view, else null. */
  async get(p: Principal, opts: { create?: boolean } = {}): Promise<ApiTokenView | null> {
    const entitlement = await this.entitled(p);
    const existing = await this.repo.byAccount(p.accountId);
    if (existing) {
      // a key from before webhooks has no secret: made now, shown in this answer only
      const secret = opts.create === false ? null : await this.deps.services.webhooks.newSecret(p.accountId, false);
      return this.view(p.account, existing, entitlement, null, secret);
    }
    if (opts.create === false) return null;
    const token = newApiToken();
    const now = Date.now();
    if (await this.repo.create(p.accountId, apiTokenHash(token), token.slice(-4), now)) {
      const secret = await this.deps.services.webhooks.newSecret(p.accountId, true);
      return this.view(p.account, (await this.repo.byAccount(p.accountId))!, entitlement, token, secret);
    }
    // a concurrent first call created it: that answer showed it
    return this.view(p.account, (await this.repo.byAccount(p.accountId))!, entitlement, null);
  }

  /**
   * POST api_token/reset: a new token, shown once; the old one stops working with this write.
   * Resets of one account are serialised: of resets racing, or sent within RESET_GUARD_MS of each
   * other, the first answers the new token and the others a conflict (HTTP 409, reason
   * apiTokenResetConflict, data.retry_after), never a token the next reset replaces a moment later.
   * The write names the hash it read, so of two that read the same token one replaces it (both DB modes).
   */
  async reset(p: Principal): Promise<ApiTokenView> {
    const entitlement = await this.entitled(p);
    const token = newApiToken();
    const hash = apiTokenHash(token);
    const now = Date.now();
    const current = await this.repo.byAccount(p.accountId);
    // ms until another reset may run: the guard after the last reset (a lost race: a whole guard)
    const wait = current?.reset_at == null ? 0 : RESET_GUARD_MS - (now - Number(current.reset_at));
    const conflict = (ms: number) =>
      refused({ reason: 'apiTokenResetConflict', retry_after: Math.ceil(ms / 1000) }, 409);
    if (wait > 0) throw conflict(wait);
    const won =
      current === undefined
        ? // a reset that creates the first key is a reset too: the resets racing it find the guard set
          await this.repo.create(p.accountId, hash, token.slice(-4), now, true)
        : await this.repo.replaceIf(p.accountId, current.token_hash, hash, token.slice(-4), now);
    if (!won) throw conflict(RESET_GUARD_MS);
    // a new key, a new webhook secret: whoever held the old key cannot sign as this account any more
    const secret = await this.deps.services.webhooks.newSecret(p.accountId, true);
    return this.view(p.account, (await this.repo.byAccount(p.accountId))!, entitlement, token, secret);
  }

  private async view(
    a: Account,
    row: ApiTokenRow,
    entitlement: ApiEntitlement,
    token: string | null,
    webhookSecret: string | null = null,
  ): Promise<ApiTokenView> {
    return {
      api_token: token,
      webhook_secret: webhookSecret,
      masked: maskApiToken(row.hint),
      created: token !== null,
      created_at: Number(row.created_at),
      last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
      calls_this_month: row.calls_month_key === monthKey(Date.now()) ? Number(row.calls_month) : 0,
      entitlement,
      credits: creditsLeft(a.max_num, a.used_num),
      api_pack_credits: packCreditsOwned(a),
      rate_limit_per_minute: API_TOKEN_RATE_LIMIT_PER_MINUTE,
      free_previews_left: await this.freePreviewsLeft(a.id),
      free_previews_per_month: this.deps.config.apiFreePreviewsPerMonth,
    };
  }

  /** Free previews the account has left this month (UTC). */
  async freePreviewsLeft(accountId: number, now = Date.now()): Promise<number> {
    const used = await countFreePreviews(this.deps.db, accountId, now);
    return Math.max(0, this.deps.config.apiFreePreviewsPerMonth - used);
  }

  /** An API token → the account it acts for. Unknown, malformed or replaced → code 6, HTTP 401. */
  async resolve(token: string | undefined): Promise<ApiPrincipal> {
    if (!isApiTokenShape(token)) throw unauthorized();
    const hash = apiTokenHash(token);
    const found = await this.repo.findWithAccount(hash);
    if (!found || found.account.kind !== 'user') throw unauthorized();
    const account = await this.deps.services.plans.settleExpiry(found.account);
    const license = this.deps.services.license;
    const level = license.levelOf(account);
    return {
      token,
      apiTokenHash: hash,
      accountId: account.id,
      account,
      level,
      limits: license.limitsOf(account),
      logged: true,
    };
  }

  /** Last use and calls this month of the token (one UPDATE per call). */
  recordUse(hash: string, now = Date.now()): Promise<void> {
    return this.repo.recordUse(hash, now);
  }

  /**
   * Grants an API pack: its credits onto the account's balance and its pack credits (a ledger grant)
   * and the grant row that makes the account an API customer, once per `ref`, in `trx` when given (a payment event applies it
   * with its own row). Returns false when `ref` was granted before.
   */
  async grantPackIn(trx: Db, accountId: number, plan: ApiPlan, ref: string): Promise<boolean> {
    const now = Date.now();
    if (
      !(await new ApiTokenRepository(trx).recordGrant({
        ref,
        account_id: accountId,
        api_plan: plan.name,
        credits: plan.credits,
        created_at: now,
      }))
    )
      return false;
    if (!(await ledger.recordOnce(trx, accountId, `${API_PLAN_LEVEL}:${ref}`, 'grant', plan.credits, now)))
      return false;
    await new AccountRepository(trx).addPackCredits(accountId, plan.credits, now);
    return true;
  }

  grantPack(accountId: number, plan: ApiPlan, ref: string): Promise<boolean> {
    return this.deps.db.transaction().execute((trx) => this.grantPackIn(trx, accountId, plan, ref));
  }

  hasApiPack(accountId: number): Promise<boolean> {
    return this.repo.hasApiPack(accountId);
  }
}
