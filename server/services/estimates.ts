/**
 * Honest time (issue 51 point 4): this server's engine rates as the client reads them before a start,
 * the seeds overlaid with what finished works taught (engine_rates; src/shared/domain/estimate.ts).
 */
import { SEED_S_PER_MP, WORK_OVERHEAD_S } from '../../src/shared/domain/estimate.js';
import { allRates } from '../repositories/engineRateRepository.js';
import type { ServiceBase } from './base.js';

export class EstimateService {
  constructor(private readonly deps: ServiceBase) {}

  /** GET /api/v2/engine_rates: every engine's rate (learned where measured, else the seed) and the overhead. */
  async rates(): Promise<{ rates: Record<string, number>; overhead_s: number }> {
    return { rates: { ...SEED_S_PER_MP, ...(await allRates(this.deps.db)) }, overhead_s: WORK_OVERHEAD_S };
  }
}
