/**
 * What a work costs (spec §1, §6): the one home of the credit price. The service charges it, the ledger's
 * repository takes it from the account's totals and the answers report it, all from `creditCost`.
 */

/** The credits one work takes, whatever its feature, steps or size (spec §1: credits are consumed per processed image). */
export const CREDITS_PER_WORK = 1;

/**
 * Which balance pays: compress works draw on the compress credits (compress_max − compress_used),
 * every other work on the plan's credits (max_num − used_num).
 */
export type CreditPool = 'plan' | 'compress';

export interface CreditCost {
  readonly pool: CreditPool;
  readonly amount: number;
}

/** The price of a work from its job name as parsed from its jconfig (a module, a preset or 'workflow'). */
export function creditCost(work: { readonly job: string }): CreditCost {
  return { pool: work.job === 'compress' ? 'compress' : 'plan', amount: CREDITS_PER_WORK };
}
