/** Subscription facts for the workspace and the pricing side (spec §3 Products, §7 Subscription). */
import { PRODUCTS } from '../../src/shared/domain/constants.js';
import type { DataOf } from '../../src/shared/schemas/common.js';
import type { SubscribeInfo as SubscribeInfoRoute } from '../../src/shared/schemas/promotions.js';
import type { FieldsOf } from '../../src/shared/schemas/common.js';
import type { CartAbandon } from '../../src/shared/schemas/promotions.js';
import { emailError, normalizeEmail } from '../../src/shared/domain/account.js';
import { isSubscriber } from '../../src/shared/domain/plans.js';
import { paramError, unauthorized } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import type { ServiceBase } from './base.js';
import type { EventService } from './events.js';
import type { LicenseService } from './license.js';
import type { Principal } from './tokens.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { events: EventService; license: LicenseService } };

/** GET subscribe_info's answer (its schema: src/shared/schemas/promotions.ts). */
export type SubscribeInfo = DataOf<typeof SubscribeInfoRoute>;

export class SubscriptionService {
  private readonly accounts: AccountRepository;

  constructor(private readonly deps: Deps) {
    this.accounts = new AccountRepository(deps.db);
  }

  /** GET /api/v2/subscribe_info. */
  info(p: Principal): SubscribeInfo {
    return {
      products: PRODUCTS.map((x) => ({ id: x.id, level: x.level, price: { ...x.price } })),
      level: p.level,
      subscribed: isSubscriber(p.level),
      expires_at: p.account.plan_expires_at,
    };
  }

  /**
   * GET /api/v2/is_subscribed: whether the signed-in caller (whose address `email` must be, when
   * given) is on a live paid plan. Anyone could once ask about any address; a guest or
   * another address is refused with code 6, as for any call that needs the account.
   */
  async isSubscribed(email: string | undefined, caller: Principal): Promise<{ subscribed: boolean }> {
    if (!caller.logged) throw unauthorized();
    if (email !== undefined && email !== '') {
      if (emailError(email)) throw paramError('emailInvalid', { field: 'email' });
      if (normalizeEmail(email) !== caller.account.email) throw unauthorized();
    }
    return { subscribed: isSubscriber(this.deps.services.license.levelOf(caller.account)) };
  }

  /** POST /api/cart/abandon: the pricing page tells us a checkout was left; kept as an event. */
  async cartAbandon(accountId: number | null, input: FieldsOf<typeof CartAbandon>): Promise<{ event_id: number }> {
    const productId = input.product_id ?? null;
    if (productId !== null && !PRODUCTS.some((x) => x.id === productId)) throw paramError('productUnknown');
    const event_id = await this.deps.services.events.record('cart-abandon', accountId, {
      product_id: productId,
      currency: input.currency ?? null,
      source: input.source ?? null,
      medium: input.medium ?? null,
    });
    return { event_id };
  }
}
