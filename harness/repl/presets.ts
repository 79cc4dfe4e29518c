/**
 * What `icemu repl [preset | config file]` simulates: a Buzzard n-cube with
 * the control unit, node memory and CPU stand-in on every node
 * (rtl/buzzard/network.ts), configured by a preset name or a JSON file of
 * BuzzardConfig fields (rtl/buzzard/config.ts; unset fields keep the seed
 * defaults).
 */
import { existsSync, readFileSync } from 'node:fs';
import { checkConfig, DEFAULT_BUZZARD, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { nearestNames } from '../../rtl/kernel/names.ts';

export interface Preset {
  description: string;
  config: Partial<BuzzardConfig>;
}

export const PRESETS: Record<string, Preset> = {
  cube1: { description: 'Buzzard 1-cube (2 nodes), seed defaults', config: { n: 1 } },
  cube2: { description: 'Buzzard 2-cube (4 nodes), seed defaults', config: { n: 2 } },
  cube3: { description: 'Buzzard 3-cube (8 nodes), seed defaults (the default)', config: { n: 3 } },
  cube4: { description: 'Buzzard 4-cube (16 nodes), seed defaults', config: { n: 4 } },
  'cube3-ecube': { description: 'Buzzard 3-cube with fixed e-cube first hops', config: { n: 3, routing: 'e-cube' } },
  'cube3-strict': { description: 'Buzzard 3-cube with strict framing (A2: 33-cycle hops)', config: { n: 3, strictFraming: true } },
  deadlock2: {
    description: 'Buzzard 2-cube, 2-row CAMs, contrary refusal off (§7 rule off: can deadlock)',
    config: { n: 2, camHeight: 2, contraryRefusal: false },
  },
};

export const DEFAULT_PRESET = 'cube3';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const TOP_FIELDS = Object.keys(DEFAULT_BUZZARD) as (keyof BuzzardConfig)[];
const CU_FIELDS = Object.keys(DEFAULT_BUZZARD.cu);

/** Check and complete a parsed JSON config; errors name the file and the field. */
export function configFromJson(text: string, file: string): BuzzardConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${file}: expected a JSON object of BuzzardConfig fields (${TOP_FIELDS.join(', ')})`);
  const obj = raw as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (!(TOP_FIELDS as string[]).includes(k)) {
      const near = nearestNames(k, TOP_FIELDS);
      throw new ConfigError(`${file}: unknown field '${k}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; fields: ${TOP_FIELDS.join(', ')}`);
    }
  }
  if (obj.cu !== undefined) {
    if (typeof obj.cu !== 'object' || obj.cu === null || Array.isArray(obj.cu)) throw new ConfigError(`${file}: field 'cu' must be an object with ${CU_FIELDS.join(', ')}`);
    for (const k of Object.keys(obj.cu)) {
      if (!CU_FIELDS.includes(k)) throw new ConfigError(`${file}: unknown field 'cu.${k}'; fields: ${CU_FIELDS.map((f) => `cu.${f}`).join(', ')}`);
    }
  }
  checkTypes(obj, DEFAULT_BUZZARD as unknown as Record<string, unknown>, file, '');
  try {
    return checkConfig(obj as Partial<BuzzardConfig>);
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as Error).message}`);
  }
}

/** Each field must have the type of its default: a whole number, true/false or a string (before the range checks). */
function checkTypes(obj: Record<string, unknown>, defaults: Record<string, unknown>, file: string, prefix: string): void {
  for (const [k, v] of Object.entries(obj)) {
    const d = defaults[k];
    const field = `${prefix}${k}`;
    if (typeof d === 'number' && !(typeof v === 'number' && Number.isInteger(v))) throw new ConfigError(`${file}: field '${field}' must be an integer (got ${JSON.stringify(v)})`);
    if (typeof d === 'boolean' && typeof v !== 'boolean') throw new ConfigError(`${file}: field '${field}' must be true or false (got ${JSON.stringify(v)})`);
    if (typeof d === 'string' && typeof v !== 'string') throw new ConfigError(`${file}: field '${field}' must be a string (got ${JSON.stringify(v)})`);
    if (d !== null && typeof d === 'object' && !Array.isArray(d) && v !== null && typeof v === 'object') checkTypes(v as Record<string, unknown>, d as Record<string, unknown>, file, `${field}.`);
  }
}

/** A preset name or a JSON config file (a name ending in .json, or an existing file). */
export function resolveConfig(arg: string | undefined): { name: string; config: BuzzardConfig } {
  const name = arg ?? DEFAULT_PRESET;
  const preset = PRESETS[name];
  if (preset) return { name, config: checkConfig(preset.config) };
  if (name.endsWith('.json') || existsSync(name)) {
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (e) {
      throw new ConfigError(`cannot read config file ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return { name, config: configFromJson(text, name) };
  }
  const near = nearestNames(name, Object.keys(PRESETS));
  throw new ConfigError(
    `unknown preset '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; presets: ${Object.keys(PRESETS).join(', ')}; or give a JSON config file`,
  );
}
