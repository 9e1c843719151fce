/** Saved workflows (signed-in users): a name and steps, each a feature with its parameters. */
import { Type } from 'typebox';
import { WORKFLOW_FIRST_PAGE, WORKFLOW_PAGE_SIZE } from '../domain/constants.js';
import { AUTH, Deleted, Id, MAX_ID, Paged, routeGroup } from './common.js';

/** Largest page a client may ask for (the workspace uses 10). */
export const WORKFLOW_PAGE_LIMIT_MAX = 100;

const StepConfig = Type.Object({
  module: Type.String({ description: 'the feature’s module, e.g. enlarge' }),
  module_params: Type.Optional(Type.Object({}, { description: 'its parameters' })),
});
export const FlowStep = Type.Object({
  name: Type.String({ description: 'the step’s label' }),
  config: Type.String({ description: 'JSON text of {module, module_params}' }),
});
export const WorkflowView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  flows: Type.Array(FlowStep),
  active: Type.Boolean({ description: 'shown in the workspace' }),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

const WorkflowId = Id({ description: 'a workflow’s id' });
const Ids = Type.Union(
  [
    Type.String({ maxLength: 10_000, description: 'one id or a comma-separated list (empty: none)' }),
    WorkflowId,
    Type.Array(WorkflowId, { maxItems: 1000 }),
  ],
  {
    description: 'workflow ids: one, a comma-separated list or repeated ids[]',
  },
);
const WorkflowFields = {
  name: Type.Optional(
    Type.String({
      maxLength: 1000,
      description: 'the workflow’s name (at most 50 characters once trimmed); a dated name when empty',
    }),
  ),
  flows: Type.Union(
    [
      Type.String({ maxLength: 64 * 1024, description: 'the steps as JSON text' }),
      Type.Array(
        Type.Object({
          name: Type.Optional(Type.String({ maxLength: 200 })),
          config: Type.Union([Type.String({ maxLength: 16 * 1024 }), StepConfig]),
        }),
        { minItems: 1, maxItems: 20 },
      ),
    ],
    { description: 'the steps, in order: [{name, config: {module, module_params}}] (config may be its JSON text)' },
  ),
};
const FLOWS_EXAMPLE = [{ name: 'Enlarge 2×', config: '{"module":"enlarge","module_params":{"scale":2}}' }];

const workflows = routeGroup('account', AUTH.token);
/** Workflows picked by id: one `id`, or `ids` (a comma list or `ids[]`). */
const WorkflowIds = Type.Object({ id: Type.Optional(WorkflowId), ids: Type.Optional(Ids) });

export const WorkflowList = workflows.get('/api/work_flow/list', 'The caller’s saved workflows, newest first', {
  fields: Type.Object({
    page: Type.Optional(Type.Integer({ minimum: WORKFLOW_FIRST_PAGE, maximum: MAX_ID, default: WORKFLOW_FIRST_PAGE })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: WORKFLOW_PAGE_LIMIT_MAX, default: WORKFLOW_PAGE_SIZE })),
  }),
  data: Type.Object({ ...Paged(WorkflowView).properties, per_page: Type.Integer() }),
  example: { page: 1, limit: 10 },
});

export const WorkflowAdd = workflows.post('/api/work_flow/add', 'Saves a new workflow', {
  fields: Type.Object(WorkflowFields),
  data: Type.Object({ id: Type.Integer() }),
  example: { name: 'Sharper and bigger', flows: FLOWS_EXAMPLE },
});

export const WorkflowUpdate = workflows.post('/api/work_flow/update', 'Renames a workflow or replaces its steps', {
  fields: Type.Object({ id: WorkflowId, ...WorkflowFields }),
  data: WorkflowView,
  example: { id: 12, name: 'Sharper and bigger', flows: FLOWS_EXAMPLE },
});

export const WorkflowDelete = workflows.post('/api/work_flow/delete', 'Deletes workflows (all the caller’s, or none)', {
  fields: WorkflowIds,
  data: Deleted,
  example: { ids: '12,13' },
});

export const ActiveFlows = workflows.post(
  '/api/work_flow/active_flows',
  'Picks the workflows shown in the workspace (without ids: reads them)',
  {
    fields: WorkflowIds,
    data: Type.Object({ datas: Type.Array(WorkflowView) }),
    example: { ids: '12' },
  },
);
