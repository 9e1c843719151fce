/** The name of a saved workflow (spec §5): defaulted when left empty, limited in length. */

/** Default name of a saved workflow when the user leaves it empty: 'workflow_' plus a readable local timestamp (spec §5). */
export function defaultWorkflowName(now: number): string {
  const d = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  return `workflow_${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Workflow name rule: required after defaulting, at most `max` characters. Returns the name or an error key. */
export function normaliseWorkflowName(
  raw: string,
  max: number,
  now: number,
): { ok: true; name: string } | { ok: false; error: 'nameTooLong' } {
  const name = raw.trim() || defaultWorkflowName(now);
  if ([...name].length > max) return { ok: false, error: 'nameTooLong' };
  return { ok: true, name };
}
