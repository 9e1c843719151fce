import { describe, expect, it } from 'vitest';
import {
  API_PLANS,
  API_PLAN_CURRENCIES,
  apiPlanNamed,
  apiPlanOfProduct,
  isApiPlanCurrency,
  maskApiToken,
  pricePerCredit,
} from './apiPlans.js';
import { PRODUCTS } from './constants.js';

describe('API credit packs', () => {
  it('have unique names and product ids that no plan product uses', () => {
    expect(new Set(API_PLANS.map((p) => p.name)).size).toBe(API_PLANS.length);
    const ids = API_PLANS.map((p) => p.productId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(PRODUCTS.some((p) => p.id === id)).toBe(false);
  });

  it('price every pack in every currency, and a bigger pack never costs more per credit', () => {
    for (const c of API_PLAN_CURRENCIES) {
      const perCredit = [...API_PLANS].sort((a, b) => a.credits - b.credits).map((p) => pricePerCredit(p, c));
      for (const p of API_PLANS) expect(p.price[c]).toBeGreaterThan(0);
      for (let i = 1; i < perCredit.length; i++) expect(perCredit[i]).toBeLessThan(perCredit[i - 1]!);
    }
  });

  it('are found by name and by product id; anything else is unknown', () => {
    const p = API_PLANS[1]!;
    expect(apiPlanNamed(p.name)).toBe(p);
    expect(apiPlanOfProduct(p.productId)).toBe(p);
    for (const bad of ['', 'API_500', 'api_500 ', null, 500, undefined]) expect(apiPlanNamed(bad)).toBeUndefined();
    expect(apiPlanOfProduct(PRODUCTS[0].id)).toBeUndefined();
  });

  it('take USD and EUR only', () => {
    expect(['USD', 'EUR'].every(isApiPlanCurrency)).toBe(true);
    expect(['JPY', 'usd', '', undefined].some(isApiPlanCurrency)).toBe(false);
  });

  it('mask a token to its prefix and last four characters', () => {
    expect(maskApiToken('x9Qa')).toBe('pxm_…x9Qa');
  });
});
