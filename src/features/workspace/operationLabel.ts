/** The operation shown on a card and in the preview: a module, a preset, or a workflow's steps. */
import type { Work } from '../../domain/work.js';

export function operationLabel(work: Pick<Work, 'operation' | 'workflow' | 'params'>, t: (key: string, opts?: { defaultValue?: string }) => string): string {
  if (!work.operation) return '';
  if (work.operation === 'workflow') {
    if (work.workflow) return work.workflow;
    const steps = (work.params?.flows ?? []) as { config?: { module?: string } }[];
    if (steps.length) return steps.map((s) => t(`workspace:modules.${s.config?.module}`, { defaultValue: s.config?.module ?? '' })).join(' → ');
  }
  return t(`workspace:modules.${work.operation}`, { defaultValue: work.operation });
}
