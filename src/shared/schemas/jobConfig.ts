/**
 * The job configuration (`jconfig` of transform and process) as a schema, generated from the feature
 * catalogue of src/shared/domain/modules.ts: one variant per `job` (each feature module, each preset,
 * a workflow), each module's `module_params` with its types, ranges and defaults, unknown keys refused.
 * The OpenAPI document carries it as `components.schemas.JobConfig` (the /api-docs/ page shows it per
 * feature, with an example each); the server checks every decoded jconfig against it
 * (server/services/jconfig.ts) before parseJobConfig applies the rules a schema cannot say (plan
 * entitlements, workflow order). The schema takes what parseJobConfig takes: a numeric choice also as
 * its text with the spec's "x" ("4x"), a whole number also as its decimal text, a boolean also as 0/1.
 */
import { Type, type TSchema } from 'typebox';
import {
  defaultParams,
  MODULE_PARAMS,
  MODULES,
  PRESETS,
  type ModuleName,
  type ParamSpec,
  type PresetName,
} from '../domain/modules.js';

/** What each feature does, in the document's words (English, as the rest of the document). */
const FEATURE_TEXT: Readonly<Record<ModuleName, string>> = {
  enlarge: 'Enlarge 2x, 4x, 6x or 8x (super-resolution); 4x and above for subscribers.',
  denoise: 'Remove noise, keeping detail.',
  sharpen: 'Sharpen with an unsharp mask (noise suppressed, grain optional).',
  sharpen_auto: 'Sharpen only where the photo is soft.',
  matting: 'Remove the background: a PNG with transparency.',
  colorize: 'Colorize a black-and-white photo.',
  colorize_pro: 'Colorize, best mode (Pro).',
  portrait: 'A pencil sketch of a portrait.',
  cartoonize: 'A cartoon of the photo.',
  face_enhancer: 'Restore faces.',
  perfect: 'Retouch: light, colour and contrast.',
  repair: 'Scratch and dust repair (a step of the old-photo preset).',
  compress: 'Recompress to a smaller file (JPEG quality or PNG palette).',
};

/** What each preset runs (its steps are fixed; it takes no params). */
const PRESET_TEXT: Readonly<Record<PresetName, string>> = {
  'se-night': 'Night scene: denoise, then retouch.',
  'se-hd': 'Super HD: sharpen where soft, then enlarge 2x.',
  'se-portrait-enhancement': 'Portrait: denoise, restore faces, enlarge 2x.',
  'se-old-repair': 'Old photo: repair scratches, denoise, colorize, enlarge 2x.',
};

/** Words for the params whose name does not say enough. */
const PARAM_TEXT: Readonly<Record<string, string>> = {
  model_name: 'the model; only this value',
  autoparams: 'choose the strengths from the photo (the other strengths are then upper bounds)',
  suppress_noise: 'noise suppression strength',
  remove_blur: 'deblur strength',
  scale: 'enlargement factor',
  quality: 'quality',
  remove_noise: 'noise removal strength',
  sharpen: 'sharpening strength',
  remove_original_detail: 'how much fine original detail may go with the noise',
  sharpness: 'sharpening strength',
  add_grain: 'film grain added back',
  rescale: 'the size the background net sees (larger: finer edges, slower)',
  render_factor: 'colour detail (higher: more, slower)',
  psd: 'also a layered PSD (Pro)',
  isBest: 'best colorize mode (Pro)',
  single_face: 'the portrait has one face (detected and framed)',
};

/** One param's schema, taking what parseParams takes. */
function paramSchema(name: string, spec: ParamSpec): TSchema {
  const words = PARAM_TEXT[name];
  switch (spec.kind) {
    case 'const':
      return Type.Literal(spec.value, { description: words ?? 'only this value' });
    case 'bool':
      return Type.Union([Type.Boolean(), Type.Enum([0, 1, '0', '1', 'true', 'false'])], {
        default: spec.default,
        description: `${words ?? 'on or off'} (true/false; 1/0 also taken)`,
      });
    case 'int':
      return Type.Union(
        [Type.Integer({ minimum: spec.min, maximum: spec.max }), Type.String({ pattern: '^-?\\d{1,9}$' })],
        {
          default: spec.default,
          description: `${words ?? 'a whole number'}: ${spec.min}–${spec.max} (its decimal text also taken)`,
        },
      );
    case 'enum': {
      const numeric = spec.values.filter((v): v is number => typeof v === 'number');
      const choices = Type.Enum([...spec.values]);
      const description = `${words ?? 'one of the choices'}: ${spec.values.join(', ')}`;
      return numeric.length
        ? Type.Union([choices, Type.String({ pattern: `^(${numeric.join('|')})[xX]?$` })], {
            default: spec.default,
            description: `${description} (also as text with an "x": "4x")`,
          })
        : Type.Enum([...spec.values], { default: spec.default, description });
    }
  }
}

/** A module's `module_params`: every key optional (the default applies), no other key. */
function moduleParamsSchema(module: ModuleName): TSchema {
  const props = Object.fromEntries(
    Object.entries(MODULE_PARAMS[module]).map(([k, s]) => [k, Type.Optional(paramSchema(k, s))]),
  );
  return Type.Object(props, {
    additionalProperties: false,
    description: `${module}’s params; a missing one takes its default`,
  });
}

/** One step of a workflow (or of a feature's job): `module` names the feature, `module_params` its params. */
const stepConfig = (module: ModuleName) =>
  Type.Object(
    { module: Type.Literal(module), module_params: Type.Optional(moduleParamsSchema(module)) },
    { additionalProperties: false, title: `${module} step` },
  );

/** A feature's example: its defaults spelled out (the server would fill the same in). */
function featureExample(module: ModuleName) {
  return { job: module, config: { module, module_params: defaultParams(module) as Record<string, unknown> } };
}

/** `{"job": "<module>", "config": {"module": "<module>", "module_params": {…}}}` for one feature. */
function featureJob(module: ModuleName) {
  // the spec's compress job names its quality beside job (§3: {"job":"compress","quality":50})
  const shorthand: Record<string, TSchema> =
    module === 'compress'
      ? {
          quality: Type.Optional({
            ...paramSchema('quality', MODULE_PARAMS.compress.quality),
            description: 'the same as config.module_params.quality (the spec’s shorthand)',
          }),
        }
      : {};
  return Type.Object(
    {
      job: Type.Literal(module),
      ...shorthand,
      config: Type.Optional(
        Type.Object(
          {
            module: Type.Optional(Type.Literal(module, { description: 'the same as job (may be left out)' })),
            module_params: Type.Optional(moduleParamsSchema(module)),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      title: module,
      description: FEATURE_TEXT[module],
      examples: [featureExample(module)],
    },
  );
}

function presetJob(preset: PresetName) {
  return Type.Object(
    { job: Type.Literal(preset) },
    {
      additionalProperties: false,
      title: preset,
      description: `${PRESET_TEXT[preset]} Takes no params.`,
      examples: [{ job: preset }],
    },
  );
}

/** Every module a job or a workflow's step may name: the features, and repair (the old-photo preset's first step). */
const STEP_MODULES = MODULES;

/** A workflow's step: its config as an object, or as its JSON text (as saved workflows keep it). */
const WorkflowStepSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200, description: 'the step’s label (shown in the history)' })),
    config: Type.Union(
      [
        Type.String({ description: 'the step’s {module, module_params} as JSON text' }),
        ...STEP_MODULES.map(stepConfig),
      ],
      { description: 'the step: module and module_params' },
    ),
  },
  { additionalProperties: false },
);

function workflowJob() {
  return Type.Object(
    {
      job: Type.Literal('workflow'),
      name: Type.Optional(Type.String({ maxLength: 1000, description: 'the workflow’s name' })),
      flows: Type.Array(WorkflowStepSchema, {
        minItems: 1,
        maxItems: 20,
        description: 'the steps in order (3 for subscribers below Pro, 5 for Pro; enlarge and matting only last)',
      }),
    },
    {
      additionalProperties: false,
      title: 'workflow',
      description: 'Several features in a row, each step’s params as for the feature.',
      examples: [
        {
          job: 'workflow',
          name: 'sharper and bigger',
          flows: [
            { name: 'denoise', config: { module: 'denoise', module_params: { remove_noise: 60 } } },
            { name: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2 } } },
          ],
        },
      ],
    },
  );
}

/** Every job a jconfig may name, in the order the document lists them. */
export const JOB_NAMES = [...STEP_MODULES, ...(Object.keys(PRESETS) as PresetName[]), 'workflow'] as const;

/** The job configuration: one variant per job, told apart by `job`. */
export const JobConfigSchema = Type.Union(
  [...STEP_MODULES.map(featureJob), ...(Object.keys(PRESETS) as PresetName[]).map(presetJob), workflowJob()],
  {
    title: 'JobConfig',
    description:
      'What to run: one feature with its params, a preset, or a workflow of steps. `job` tells the variants apart.',
  },
);

/** Every param name of any feature, with what it means per feature (the process call takes them as fields beside `feature`). */
export function featureParamFields(): Record<string, TSchema> {
  const byName = new Map<string, string[]>();
  for (const m of MODULES)
    for (const [name, spec] of Object.entries(MODULE_PARAMS[m]))
      if (spec.kind !== 'const') byName.set(name, [...(byName.get(name) ?? []), m]);
  return Object.fromEntries(
    [...byName].map(([name, modules]) => [
      name,
      Type.Optional(
        Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
          description: `text, a number or true/false: with feature ${modules.join(' or ')}, its ${PARAM_TEXT[name] ?? name} (JobConfig has its type, range and default)`,
        }),
      ),
    ]),
  );
}
