import { z, type ZodTypeAny } from 'zod';

// Shapes only: the frontmatter is read with every scalar as text (as the reference validator does), so text
// fields are strings here and booleans are checked as "true"/"false" text. Limits and formats are checked by
// skill/validate.ts, which has the positions and the folder to compare with.
//
// Each layout's fields are one table, read twice: by zod, whose findings word the diagnostics, and by a plain check
// (`fitsSkillMdShape`, `fitsManifestShape`) that says whether zod would find nothing. A valid skill, the common case
// and the one a pre-commit hook pays for, is then checked without building a schema or loading zod (the build loads
// zod on first use). The plain check answers true only where zod surely accepts; anything else goes to zod.
type Field = 'text' | 'textList' | 'triggers' | 'textRecord' | 'booleanText' | 'boolean' | 'envVarNames' | 'mcpServers';

const SKILL_MD_FIELDS: Record<string, Field> = {
  name: 'text',
  description: 'text',
  license: 'text',
  compatibility: 'text',
  metadata: 'textRecord',
  'allowed-tools': 'text',
  version: 'text',
  toolsets: 'textList',
  scripts: 'textList',
  triggers: 'triggers',
  default_enabled: 'booleanText',
  brief_description: 'text',
  dependencies: 'textList',
  'disable-model-invocation': 'booleanText',
};

const MANIFEST_FIELDS: Record<string, Field> = {
  id: 'text',
  name: 'text',
  version: 'text',
  description: 'text',
  owner: 'text',
  context: 'textList',
  scripts: 'textList',
  envVars: 'envVarNames',
  mcpServers: 'mcpServers',
  dependencies: 'textList',
  nodeVersion: 'text',
  systemPackages: 'textList',
  usedBy: 'textList',
  registeredAt: 'text',
  updatedAt: 'text',
  // Seed 004's extensions are accepted in manifests too.
  triggers: 'triggers',
  toolsets: 'textList',
  default_enabled: 'boolean',
  brief_description: 'text',
  license: 'text',
  compatibility: 'text',
  metadata: 'textRecord',
};

const BOOLEAN_TEXT = ['true', 'false', 'True', 'False', 'TRUE', 'FALSE'] as const;
const TRIGGER_KEYS = ['keywords', 'verbs', 'patterns'];
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function zodOf(field: Field): ZodTypeAny {
  const text = z.string();
  const textList = z.array(text);
  switch (field) {
    case 'text':
      return text;
    case 'textList':
      return textList;
    case 'triggers':
      return z.object({ keywords: textList, verbs: textList, patterns: textList }).partial().strict();
    case 'textRecord':
      return z.record(text);
    case 'booleanText':
      return z.enum(BOOLEAN_TEXT);
    case 'boolean':
      return z.boolean();
    case 'envVarNames':
      return z.array(
        text.regex(ENV_VAR_NAME, 'an environment variable name (letters, digits and _, not starting with a digit)'),
      );
    case 'mcpServers':
      return z.array(mcpServerSchema());
  }
}

const objectOf = (fields: Record<string, Field>) =>
  z
    .object(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, zodOf(f)])))
    .partial()
    .passthrough();

/** Built on first use, once. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The shape of a SKILL.md's frontmatter, for zod. */
export const skillMdSchema = once(() => objectOf(SKILL_MD_FIELDS));

/** An MCP server a manifest declares: local (a command) or remote (a URL). */
export const mcpServerSchema = once(() =>
  z.discriminatedUnion('type', [
    z
      .object({
        name: z.string().min(1),
        type: z.literal('local'),
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        env: z.record(z.string()).optional(),
        cwd: z.string().optional(),
      })
      .strict(),
    z
      .object({
        name: z.string().min(1),
        type: z.literal('remote'),
        url: z.string().url(),
        headers: z.record(z.string()).optional(),
      })
      .strict(),
  ]),
);

/** The shape of a manifest.json, for zod. */
export const manifestSchema = once(() => objectOf(MANIFEST_FIELDS));

/** True when skillMdSchema() surely accepts the frontmatter (false: ask zod, which words what is wrong). */
export const fitsSkillMdShape = (data: Record<string, unknown>): boolean => fits(SKILL_MD_FIELDS, data);

/** True when manifestSchema() surely accepts the manifest (false: ask zod, which words what is wrong). */
export const fitsManifestShape = (data: Record<string, unknown>): boolean => fits(MANIFEST_FIELDS, data);

function fits(fields: Record<string, Field>, data: Record<string, unknown>): boolean {
  if (!isMapping(data)) return false;
  for (const key of Object.keys(fields)) {
    const value = data[key];
    if (value !== undefined && !fitsField(fields[key]!, value)) return false;
  }
  return true;
}

function fitsField(field: Field, v: unknown): boolean {
  switch (field) {
    case 'text':
      return typeof v === 'string';
    case 'textList':
      return isTextList(v);
    case 'triggers':
      return (
        isMapping(v) &&
        Object.keys(v).every((k) => TRIGGER_KEYS.includes(k) && (v[k] === undefined || isTextList(v[k])))
      );
    case 'textRecord':
      return isMapping(v) && Object.values(v).every((x) => typeof x === 'string');
    case 'booleanText':
      return (BOOLEAN_TEXT as readonly unknown[]).includes(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'envVarNames':
      return isTextList(v) && v.every((name) => ENV_VAR_NAME.test(name));
    case 'mcpServers':
      // Servers are few and rare: zod checks them.
      return Array.isArray(v) && v.length === 0;
  }
}

/** A list of text, with no holes. */
function isTextList(v: unknown): v is string[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}

/** A plain mapping, as YAML and JSON.parse make them (zod calls a Date, a Map or a Promise something else). */
function isMapping(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Top-level keys of the bare Agent Skills specification. */
export const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
/** Seed 004's extension keys and our `dependencies`. */
export const EXTENSION_KEYS = [
  'version',
  'toolsets',
  'scripts',
  'triggers',
  'default_enabled',
  'brief_description',
  'dependencies',
];
/** Keys that agent clients (Claude Code and others) read; known, so not reported outside --spec. */
export const CLIENT_KEYS = [
  'disable-model-invocation',
  'argument-hint',
  'user-invocable',
  'model',
  'effort',
  'context',
  'agent',
  'hooks',
  'paths',
  'shell',
  'when_to_use',
];
/** Top-level keys of the manifest.json layout. */
export const MANIFEST_KEYS = Object.keys(MANIFEST_FIELDS);
