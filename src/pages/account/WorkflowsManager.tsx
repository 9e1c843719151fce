/** Saved workflows (spec §3, §7): 10 a page from page 1; rename (≤ 50 characters), delete, open in the workspace. */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import * as endpoints from '../../api/endpoints.js';
import { formFailure, useAccountT } from './i18n.js';
import { jobLabel } from '../../features/workspace/operationLabel.js';
import { handleError } from '../../app/handleError.js';
import { useLang } from '../../app/lang.js';
import { WORKFLOW_FIRST_PAGE, WORKFLOW_NAME_MAX, WORKFLOW_PAGE_SIZE } from '../../shared/domain/constants.js';
import type { Step } from '../../shared/domain/modules.js';
import { localizedPath } from '../../shared/domain/links.js';
import { dialogs } from '../../stores/dialogs.js';
import { usePanel } from '../../stores/panel.js';
import { Pager } from './Pager.js';

type Record_ = endpoints.WorkflowRecord;
const stepsOf = (w: Record_): Step[] =>
  w.flows.map((f) => ({
    name: f.name,
    config: typeof f.config === 'string' ? JSON.parse(f.config) : f.config,
  })) as Step[];

export function WorkflowsManager({ asPage = false }: { asPage?: boolean }) {
  const t = useAccountT();
  const lng = useLang();
  const navigate = useNavigate();
  const [page, setPage] = useState(WORKFLOW_FIRST_PAGE);
  const [data, setData] = useState<{ datas: Record_[]; last_page: number; total: number } | null>(null);
  const [editing, setEditing] = useState<string | number | null>(null);

  const load = useCallback(
    (p: number) =>
      endpoints
        .workflowList(p, WORKFLOW_PAGE_SIZE)
        .then((d) => {
          // A page emptied by deletes falls back to the last page that still has items.
          if (d.datas.length === 0 && p > WORKFLOW_FIRST_PAGE) setPage(Math.max(WORKFLOW_FIRST_PAGE, d.last_page));
          else setData(d);
        })
        .catch(handleError),
    [],
  );
  useEffect(() => {
    void load(page);
  }, [page, load]);

  const open = (w: Record_) => {
    usePanel.getState().useWorkflow(w.id, w.name, stepsOf(w));
    navigate(localizedPath('/batch-process/', lng));
  };
  const remove = (w: Record_) =>
    dialogs.open({
      kind: 'confirm',
      title: t('workflows.deleteTitle'),
      message: t('workflows.deleteText', { name: w.name }),
      confirmLabel: t('workflows.delete'),
      onConfirm: () =>
        void endpoints
          .workflowDelete(w.id)
          .then(() => load(page))
          .catch(handleError),
    });

  return (
    <section className="acct-card" aria-labelledby="wf-title" data-testid="workflows">
      {asPage ? <h1 id="wf-title">{t('workflows.title')}</h1> : <h2 id="wf-title">{t('workflows.title')}</h2>}
      {data && data.datas.length === 0 && <p className="muted">{t('workflows.empty')}</p>}
      <ul className="wf-list">
        {data?.datas.map((w) => (
          <li key={w.id} className="wf-item" data-testid="wf-item">
            {editing === w.id ? (
              <RenameForm
                workflow={w}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) void load(page);
                }}
              />
            ) : (
              <>
                <div>
                  <strong data-testid="wf-name">{w.name}</strong>
                  <p className="muted small">
                    {t('workflows.steps', { count: w.flows.length })}:{' '}
                    {stepsOf(w)
                      .map((s) => jobLabel(s.config.module))
                      .join(' → ')}
                  </p>
                </div>
                <div className="row-actions">
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    onClick={() => open(w)}
                    data-testid="wf-open"
                  >
                    {t('workflows.open')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => setEditing(w.id)}
                    data-testid="wf-rename"
                  >
                    {t('workflows.rename')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm danger"
                    onClick={() => remove(w)}
                    data-testid="wf-delete"
                  >
                    {t('workflows.delete')}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      {data && <Pager page={page} last={data.last_page} onPage={setPage} testId="wf-pager" />}
    </section>
  );
}

function RenameForm({ workflow, onDone }: { workflow: Record_; onDone(saved: boolean): void }) {
  const t = useAccountT();
  const [name, setName] = useState(workflow.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return setError(t('errors.required'));
    if ([...n].length > WORKFLOW_NAME_MAX) return setError(t('workflows.nameTooLong', { max: WORKFLOW_NAME_MAX }));
    setBusy(true);
    try {
      await endpoints.workflowAdd(n, workflow.flows, workflow.id);
      onDone(true);
    } catch (err) {
      setError(formFailure(t, err).message ?? t('errors.required'));
    } finally {
      setBusy(false);
    }
  };
  const id = `wf-rename-${workflow.id}`;
  return (
    <form className="acct-inline" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={id} className="sr-only">
        {t('workflows.name')}
      </label>
      <input
        id={id}
        value={name}
        onChange={(e) => setName(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-err` : undefined}
        autoFocus
        data-testid="wf-rename-input"
      />
      <button className="btn btn-primary btn-sm" disabled={busy} data-testid="wf-rename-save">
        {t('workflows.save')}
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => onDone(false)}>
        {t('workflows.cancel')}
      </button>
      {error && (
        <span id={`${id}-err`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
