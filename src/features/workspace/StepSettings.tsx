/** Step settings generated from the module's params schema (MODULE_PARAMS): sliders, switches, choices. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MODULE_PARAMS,
  type ModuleName,
  type ModuleParams,
  type ParamSpec,
  type ParamValue,
} from '../../shared/domain/modules.js';
import { limitsFor, type Level } from '../../shared/domain/plans.js';
import { ENLARGE_MAX_SIDE_PX } from '../../shared/domain/constants.js';
import { outputTooLarge } from '../../shared/domain/resultSize.js';
import { dialogs } from '../../stores/dialogs.js';

/** A param value the level may not choose, with the pricing medium of its upgrade prompt. */
export function lockedParam(module: ModuleName, key: string, value: ParamValue, level: Level): string | null {
  const lim = limitsFor(level);
  if (key === 'psd' && value === true && !lim.psd) return 'psd';
  if (key === 'isBest' && value === true && !lim.bestColorize) return 'best_colorize';
  if (module === 'enlarge' && key === 'scale' && !lim.scales.includes(Number(value))) return `scale_${value}x`;
  return null;
}

export function isLockedModule(module: ModuleName, level: Level): boolean {
  return module === 'colorize_pro' && !limitsFor(level).bestColorize;
}

export function openUpgrade(source: string, medium: string, message: string): void {
  dialogs.open({ kind: 'upgrade', source, medium, message });
}

/** A selected image's size and name: scales whose result it cannot take are disabled with the reason. */
export interface SelectedSize {
  w: number;
  h: number;
  name: string;
}

interface Props {
  module: ModuleName;
  params: ModuleParams;
  level: Level;
  source: string;
  /** the selected works' sizes (enlarge disables the scales the largest of them cannot take) */
  sizes?: readonly SelectedSize[];
  onChange(key: string, value: ParamValue): void;
}

/** The selected image with the longest side, which decides which scales can be made. */
function largestSelected(sizes: readonly SelectedSize[] | undefined): SelectedSize | undefined {
  let best: SelectedSize | undefined;
  for (const s of sizes ?? []) if (!best || Math.max(s.w, s.h) > Math.max(best.w, best.h)) best = s;
  return best;
}

export function StepSettings({ module, params, level, source, sizes, onChange }: Props) {
  const { t } = useTranslation('workspace');
  const entries = Object.entries(MODULE_PARAMS[module]).filter(([, s]) => s.kind !== 'const');
  if (entries.length === 0) return <p className="muted small">{t('settings.none')}</p>;
  const set = (key: string, value: ParamValue) => {
    const medium = lockedParam(module, key, value, level);
    if (medium) {
      const message = key === 'psd' ? t('upgrade.psd') : key === 'scale' ? t('upgrade.scale') : t('upgrade.pro');
      openUpgrade(source, medium, message);
      return;
    }
    onChange(key, value);
  };
  return (
    <div className="step-settings">
      {entries.map(([key, spec]) => (
        <ParamControl
          key={key}
          name={key}
          spec={spec}
          value={params[key]}
          module={module}
          level={level}
          auto={params.autoparams === true}
          largest={largestSelected(sizes)}
          onChange={(v) => set(key, v)}
        />
      ))}
    </div>
  );
}

function ParamControl({
  name,
  spec,
  value,
  module,
  level,
  auto,
  largest,
  onChange,
}: {
  name: string;
  spec: ParamSpec;
  value: ParamValue | undefined;
  module: ModuleName;
  level: Level;
  auto: boolean;
  largest?: SelectedSize;
  onChange(v: ParamValue): void;
}) {
  const { t } = useTranslation('workspace');
  const id = useId();
  const label = t(`params.${name}`, { defaultValue: name });
  // With automatic parameters on, the engine picks the strengths itself.
  const disabledByAuto = auto && spec.kind === 'int';
  switch (spec.kind) {
    case 'int': {
      const v = typeof value === 'number' ? value : spec.default;
      return (
        <div className="param">
          <div className="param-head">
            <label htmlFor={id}>{label}</label>
            <output htmlFor={id}>{v}</output>
          </div>
          <input
            id={id}
            type="range"
            min={spec.min}
            max={spec.max}
            step={1}
            value={v}
            disabled={disabledByAuto}
            onChange={(e) => onChange(Number(e.target.value))}
          />
        </div>
      );
    }
    case 'bool': {
      const v = typeof value === 'boolean' ? value : spec.default;
      const locked = lockedParam(module, name, true, level) !== null;
      return (
        <label className="param param-switch" htmlFor={id}>
          <span>
            {label}
            {locked && <span className="badge badge-pro">Pro</span>}
          </span>
          <input id={id} type="checkbox" role="switch" checked={v} onChange={(e) => onChange(e.target.checked)} />
        </label>
      );
    }
    case 'enum': {
      // Scales whose result the largest selected image cannot take (src/shared/domain/resultSize.ts) are off, with the reason below.
      const tooLarge =
        module === 'enlarge' && name === 'scale' && largest
          ? spec.values.filter((opt) => outputTooLarge(largest.w, largest.h, Number(opt)))
          : [];
      return (
        <fieldset className="param">
          <legend>{label}</legend>
          <div className="segmented" role="radiogroup" aria-label={label}>
            {spec.values.map((opt) => {
              const locked = lockedParam(module, name, opt, level) !== null;
              const selected = String(value ?? spec.default) === String(opt);
              const off = tooLarge.includes(opt);
              return (
                <button
                  key={String(opt)}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  className={selected ? 'on' : ''}
                  disabled={off}
                  data-testid={name === 'scale' ? `scale-${opt}` : undefined}
                  onClick={() => onChange(opt)}
                >
                  {name === 'scale'
                    ? t('scaleValue', { scale: opt })
                    : t(`values.${opt}`, { defaultValue: String(opt) })}
                  {locked && (
                    <svg
                      className="lock"
                      role="img"
                      aria-label={t('upgrade.locked')}
                      width="12"
                      height="12"
                      viewBox="0 0 24 24"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="2.5"
                      strokeLinecap="round"
                    >
                      <rect x="5" y="11" width="14" height="10" rx="2" />
                      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
                    </svg>
                  )}
                </button>
              );
            })}
          </div>
          {largest && tooLarge.length > 0 && (
            <p className="note warn small" data-testid="scale-limit">
              {t('scaleLimit', {
                scales: tooLarge.map((o) => t('scaleValue', { scale: o })).join(', '),
                name: largest.name,
                w: largest.w,
                h: largest.h,
                max: ENLARGE_MAX_SIDE_PX,
              })}
            </p>
          )}
        </fieldset>
      );
    }
    default:
      return null;
  }
}
