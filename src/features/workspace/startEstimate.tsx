/**
 * Honest time before a start (issue 51 point 4): about how long the selected images take on this server,
 * from each photo's megapixels, the panel's feature or workflow (its scale included) and this server's
 * measured engine rates (GET /api/v2/engine_rates, read once per page; src/shared/domain/estimate.ts).
 * Works run one at a time, so the times add up. Nothing is shown until the rates have come.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { timeLeftText, workSeconds, type Rates } from '../../shared/domain/estimate.js';
import { usePanel } from '../../stores/panel.js';
import { useWorks } from '../../stores/works.js';

let ratesOnce: Promise<{ rates: Rates; overhead_s: number }> | undefined;
/** The server's rates, asked once per page (a failed ask is asked again next time). */
function serverRates() {
  ratesOnce ??= endpoints.engineRates().catch((e: unknown) => {
    ratesOnce = undefined;
    throw e;
  });
  return ratesOnce;
}

export function StartEstimate() {
  const { t } = useTranslation('workspace');
  const panel = usePanel();
  const sizes = useWorks((s) =>
    s.works
      .filter((w) => w.selected && !w.onDevice && w.w > 0)
      .map((w) => `${w.w}x${w.h}`)
      .join(','),
  );
  const [rates, setRates] = useState<Rates | undefined>();
  useEffect(() => {
    let live = true;
    serverRates()
      .then((r) => live && setRates(r.rates))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!rates || !sizes) return null;
  const steps = (panel.tab === 'feature' ? [panel.feature] : panel.steps).map((s) => s.config);
  const total = sizes
    .split(',')
    .map((s) => s.split('x').map(Number) as [number, number])
    .reduce((sum, [w, h]) => sum + workSeconds(steps, w, h, rates), 0);
  const { unit, count } = timeLeftText(total);
  return (
    <p className="note" data-testid="start-estimate">
      {t(`startEstimate.${unit}`, { count })}
    </p>
  );
}
