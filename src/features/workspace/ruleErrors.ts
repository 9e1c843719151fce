/**
 * Rule failures (src/shared/domain/modules.ts ChainError / EntitlementError) in the user's language, from
 * their code and data: the domain never hands the client a sentence to parse.
 */
import type { ChainError, EntitlementError, RuleError } from '../../shared/domain/modules.js';
import { i18n } from '../../i18n/index.js';
import type { Resources } from '../../i18n/types.js';
import { jobLabel } from './operationLabel.js';

type WorkspaceKey<K extends keyof Resources['workspace']> = K;
type UpgradeKey = `upgrade.${keyof Resources['workspace']['upgrade']}`;

/** The workspace key each rule code is shown with (a missing key fails the typecheck and the locale test). */
export const RULE_ERROR_KEY = {
  noSteps: 'noValidWorkflow',
  tooManySteps: 'tooManySteps',
  lastStepOnly: 'lastStepOnly',
  psdProOnly: 'upgrade.psd',
  bestColorizeProOnly: 'upgrade.pro',
  scaleSubscribersOnly: 'upgrade.scale',
  bestEnlargeSubscribersOnly: 'upgrade.pro',
} as const satisfies Record<
  RuleError['code'],
  WorkspaceKey<'noValidWorkflow' | 'tooManySteps' | 'lastStepOnly'> | UpgradeKey
>;

/** A refused chain of steps (no steps, too many, enlarge/matting not last), translated. */
export function chainText(err: ChainError): string {
  switch (err.code) {
    case 'noSteps':
      return i18n.t(`workspace:${RULE_ERROR_KEY.noSteps}`);
    case 'tooManySteps':
      return i18n.t(`workspace:${RULE_ERROR_KEY.tooManySteps}`, { max: err.max });
    case 'lastStepOnly':
      return i18n.t(`workspace:${RULE_ERROR_KEY.lastStepOnly}`, { module: jobLabel(err.module) });
  }
}

/** The upgrade dialog's reason for a step the level may not run, translated. */
export function entitlementText(err: EntitlementError): string {
  return i18n.t(`workspace:${RULE_ERROR_KEY[err.code]}`);
}
