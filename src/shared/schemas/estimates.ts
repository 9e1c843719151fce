/** Honest time (issue 51 point 4): this server's engine rates, which the client reads before a start. */
import { Type } from 'typebox';
import { AUTH, routeGroup } from './common.js';

export const EngineRates = routeGroup('misc', AUTH.none).get(
  '/api/v2/engine_rates',
  'This server’s measured engine rates, for the time estimate shown before a start',
  {
    description:
      'Seconds per input megapixel per engine (the module, and enlarge:<scale> for enlarge), learned from this server’s finished works as a moving average and seeded with idle figures; a work takes overhead_s plus, for each step, its rate times the megapixels that step gets (src/shared/domain/estimate.ts).',
    data: Type.Object({
      rates: Type.Record(Type.String(), Type.Number({ minimum: 0 }), {
        description: 'seconds per input MP by engine key',
        examples: [{ 'enlarge:2': 4.5, denoise: 10 }],
      }),
      overhead_s: Type.Number({ description: 'seconds every work takes beyond its steps' }),
    }),
  },
);
