/**
 * Never a silent downgrade (issue 51 point 3): a finished server enlargement that did not run the chosen
 * nets on every tile says so on its card and in the preview — the fast net, or a resize without AI — and
 * why (the job limit). "Done" alone only when the chosen nets ran everywhere (path 'net' or none reported).
 */
import { useTranslation } from 'react-i18next';
import { PROCESS_TIMEOUT_MS } from '../../shared/domain/constants.js';
import type { Work } from '../../shared/domain/work.js';

/** The downgrade a finished work took, if any: the key under locales' enlargePath. */
function downgradeOf(work: Pick<Work, 'status' | 'enlargePath'>): 'fast_net' | 'resized' | undefined {
  return work.status === 'finished' && (work.enlargePath === 'fast_net' || work.enlargePath === 'resized')
    ? work.enlargePath
    : undefined;
}

/** The card's status line of a finished work: "Done", or what the enlargement fell back to. */
export function finishedStatusKey(
  work: Pick<Work, 'status' | 'enlargePath'>,
): 'enlargePath.fast_net.status' | 'enlargePath.resized.status' | undefined {
  const d = downgradeOf(work);
  return d ? (`enlargePath.${d}.status` as const) : undefined;
}

/** Why the result is not the chosen nets' everywhere, in the user's language; nothing for a full-net result. */
export function EnlargeNotice({ work, testId }: { work: Pick<Work, 'status' | 'enlargePath'>; testId: string }) {
  const { t } = useTranslation('workspace');
  const d = downgradeOf(work);
  if (!d) return null;
  return (
    <span className="work-reason" data-testid={testId} data-path={d}>
      {t(`enlargePath.${d}.why`, { minutes: PROCESS_TIMEOUT_MS / 60_000 })}
    </span>
  );
}
