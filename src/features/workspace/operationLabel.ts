/** The operation shown on a card, in the preview and in the history: a module, a preset, or a workflow's steps. */
import type { Work } from '../../shared/domain/work.js';
import { i18n } from '../../i18n/index.js';
import type { Resources } from '../../i18n/types.js';

type JobKey = keyof Resources['workspace']['modules'];

function isJobKey(job: unknown): job is JobKey {
  return typeof job === 'string' && i18n.exists(`workspace:modules.${job}`);
}

/** A job's translated name; a job the client does not know keeps its own name. */
export function jobLabel(job: string | undefined): string {
  return isJobKey(job) ? i18n.t(`workspace:modules.${job}`) : (job ?? '');
}

export function operationLabel(work: Pick<Work, 'operation' | 'workflow' | 'params'>): string {
  if (!work.operation) return '';
  if (work.operation === 'workflow') {
    if (work.workflow) return work.workflow;
    const steps = (work.params?.flows ?? []) as { config?: { module?: string } }[];
    if (steps.length) return steps.map((s) => jobLabel(s.config?.module)).join(' → ');
  }
  return jobLabel(work.operation);
}
