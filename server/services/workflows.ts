/**
 * Saved workflows (spec §3, §5, §7): a name and steps [{name, config}] with config stored as a JSON
 * string. Logged-in users only; steps follow the chain rules, the level's step count and entitlements.
 */
import { WORKFLOW_FIRST_PAGE, WORKFLOW_NAME_MAX, WORKFLOW_PAGE_SIZE } from '../../src/shared/domain/constants.js';
import { MAX_ID, type FieldsOf } from '../../src/shared/schemas/common.js';
import type { WorkflowAdd } from '../../src/shared/schemas/workflows.js';
import {
  chainError,
  entitlementError,
  isModuleName,
  ruleRefusal,
  parseParams,
  type ModuleName,
  type ModuleParams,
} from '../../src/shared/domain/modules.js';
import { notFound, paramError, refused, unauthorized } from '../errors.js';
import type { Workflow } from '../repositories/schema.js';
import * as repo from '../repositories/workflowRepository.js';
import { lockAccount } from '../repositories/uploadRepository.js';
import { WORKFLOWS_MAX } from '../../src/shared/domain/fairUse.js';
import type { ServiceBase } from './base.js';
import type { Principal } from './tokens.js';

const STEP_NAME_MAX = 50;

export interface FlowStep {
  name: string;
  /** JSON string of {module, module_params} */
  config: string;
}

export interface WorkflowView {
  id: number;
  name: string;
  flows: FlowStep[];
  active: boolean;
  created_at: number;
  updated_at: number;
}

/** add's and update's fields (src/shared/schemas/workflows.ts): flows may be JSON text, a step's config too. */
export type WorkflowInput = FieldsOf<typeof WorkflowAdd>;

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** Ids as one value, an array or a comma list; all must be positive integers. */
function parseIds(raw: unknown): number[] {
  const list = [raw]
    .flat()
    .filter((v) => v !== undefined && v !== null)
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const ids = list.map(Number);
  // An id past the database's integer (MAX_ID) is no workflow's: refused here, never looked up (PostgreSQL answered 500).
  if (ids.some((n) => !Number.isSafeInteger(n) || n < 1 || n > MAX_ID))
    throw paramError('fieldInvalid', { field: 'ids', min: 1, max: MAX_ID });
  return [...new Set(ids)];
}

export class WorkflowService {
  constructor(private readonly deps: ServiceBase) {}

  private guard(p: Principal): void {
    if (!p.logged) throw unauthorized();
  }

  /** Validates name and flows for the caller's level; returns what is stored. */
  validate(p: Principal, input: WorkflowInput): { name: string; flows: FlowStep[] } {
    const rawName = (input.name ?? '').trim();
    if ([...rawName].length > WORKFLOW_NAME_MAX) throw paramError('workflowNameTooLong', { max: WORKFLOW_NAME_MAX });
    const name = rawName || `workflow_${Date.now()}`;
    const flows = parseJson(input.flows);
    if (!Array.isArray(flows) || flows.length === 0) throw paramError('noValidWorkflow', { field: 'flows' });
    const steps: { name: string; module: ModuleName; params: ModuleParams }[] = [];
    for (const f of flows) {
      const o = (f && typeof f === 'object' ? f : {}) as Record<string, unknown>;
      const conf = parseJson(o.config) as Record<string, unknown> | undefined;
      if (!conf || typeof conf !== 'object' || !isModuleName(conf.module))
        throw paramError('noValidWorkflow', { field: 'flows' });
      const params = parseParams(conf.module, conf.module_params);
      if (!params.ok) throw refused({ field: 'flows', ...params.error });
      const stepName =
        typeof o.name === 'string' && o.name.trim() ? o.name.trim().slice(0, STEP_NAME_MAX) : conf.module;
      steps.push({ name: stepName, module: conf.module, params: params.value });
    }
    const chain = chainError(
      steps.map((s) => s.module),
      p.limits.workflowSteps,
    );
    if (chain) throw refused({ field: 'flows', ...ruleRefusal(chain) });
    for (const s of steps) {
      const e = entitlementError(p.level, { module: s.module, module_params: s.params });
      if (e) throw refused({ field: 'flows', ...ruleRefusal(e) });
    }
    return {
      name,
      flows: steps.map((s) => ({
        name: s.name,
        config: JSON.stringify({ module: s.module, module_params: s.params }),
      })),
    };
  }

  /** GET /api/work_flow/list: page from 1, newest first. */
  async list(p: Principal, page = WORKFLOW_FIRST_PAGE, limit = WORKFLOW_PAGE_SIZE) {
    this.guard(p);
    const total = await repo.countOf(this.deps.db, p.accountId);
    const rows = await repo.pageOf(this.deps.db, p.accountId, limit, (page - WORKFLOW_FIRST_PAGE) * limit);
    return {
      datas: rows.map(view),
      current_page: page,
      total,
      last_page: Math.max(WORKFLOW_FIRST_PAGE, Math.ceil(total / limit)),
      per_page: limit,
    };
  }

  /** POST /api/work_flow/add. */
  async add(p: Principal, input: WorkflowInput): Promise<{ id: number }> {
    this.guard(p);
    const { name, flows } = this.validate(p, input);
    // At most WORKFLOWS_MAX per account, counted under the account's row lock so parallel saves see each other.
    const id = await this.deps.db.transaction().execute(async (trx) => {
      await lockAccount(trx, p.accountId);
      if ((await repo.countOf(trx, p.accountId)) >= WORKFLOWS_MAX)
        throw paramError('workflowLimit', { max: WORKFLOWS_MAX });
      return repo.insertWorkflow(trx, p.accountId, name, JSON.stringify(flows), Date.now());
    });
    return { id };
  }

  /** POST /api/work_flow/update: id plus the same fields as add. */
  async update(p: Principal, id: number, input: WorkflowInput): Promise<WorkflowView> {
    this.guard(p);
    await this.owned(p, [id]);
    const { name, flows } = this.validate(p, input);
    await repo.updateWorkflow(this.deps.db, p.accountId, id, name, JSON.stringify(flows), Date.now());
    return view((await this.owned(p, [id]))[0]!);
  }

  /** POST /api/work_flow/delete: id or ids; all must be the caller's, else nothing is deleted. */
  async remove(p: Principal, idsRaw: unknown): Promise<{ deleted: number }> {
    this.guard(p);
    const ids = parseIds(idsRaw);
    if (ids.length === 0) throw paramError('fieldRequired', { field: 'id' });
    await this.owned(p, ids);
    return { deleted: await repo.deleteWorkflows(this.deps.db, p.accountId, ids) };
  }

  /**
   * POST /api/work_flow/active_flows: with ids, those workflows become the ones shown in the
   * workspace (all others inactive); without ids, only reads. Returns the active list.
   */
  async activeFlows(p: Principal, idsRaw: unknown): Promise<WorkflowView[]> {
    this.guard(p);
    if (idsRaw !== undefined) {
      const ids = parseIds(idsRaw);
      if (ids.length) await this.owned(p, ids);
      await repo.setActive(this.deps.db, p.accountId, ids);
    }
    return (await repo.activeOf(this.deps.db, p.accountId)).map(view);
  }

  private async owned(p: Principal, ids: number[]): Promise<Workflow[]> {
    const rows = await repo.ownedIn(this.deps.db, p.accountId, ids);
    if (rows.length !== ids.length) throw notFound('workflowNotFound');
    return rows;
  }
}

function view(r: Workflow): WorkflowView {
  return {
    id: r.id,
    name: r.name,
    flows: JSON.parse(r.flows_json) as FlowStep[],
    active: r.active === 1,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
