import { z } from 'zod';

// Shapes only: the frontmatter is read with every scalar as text (as the reference validator does), so text
// fields are strings here and booleans are checked as "true"/"false" text. Limits and formats are checked by
// skill/validate.ts, which has the positions and the folder to compare with.
const text = z.string();
const textList = z.array(text);
const triggers = z.object({ keywords: textList, verbs: textList, patterns: textList }).partial().strict();

export const skillMdSchema = z
  .object({
    name: text,
    description: text,
    license: text,
    compatibility: text,
    metadata: z.record(text),
    'allowed-tools': text,
    version: text,
    toolsets: textList,
    scripts: textList,
    triggers,
    default_enabled: z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE']),
    brief_description: text,
    dependencies: textList,
    'disable-model-invocation': z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE']),
  })
  .partial()
  .passthrough();

const mcpLocal = z
  .object({
    name: text.min(1),
    type: z.literal('local'),
    command: text.min(1),
    args: textList.optional(),
    env: z.record(text).optional(),
    cwd: text.optional(),
  })
  .strict();
const mcpRemote = z
  .object({
    name: text.min(1),
    type: z.literal('remote'),
    url: text.url(),
    headers: z.record(text).optional(),
  })
  .strict();
export const mcpServerSchema = z.discriminatedUnion('type', [mcpLocal, mcpRemote]);

export const manifestSchema = z
  .object({
    id: text,
    name: text,
    version: text,
    description: text,
    owner: text,
    context: textList,
    scripts: textList,
    envVars: z.array(
      text.regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        'an environment variable name (letters, digits and _, not starting with a digit)',
      ),
    ),
    mcpServers: z.array(mcpServerSchema),
    dependencies: textList,
    nodeVersion: text,
    systemPackages: textList,
    usedBy: textList,
    registeredAt: text,
    updatedAt: text,
    // Seed 004's extensions are accepted in manifests too.
    triggers,
    toolsets: textList,
    default_enabled: z.boolean(),
    brief_description: text,
    license: text,
    compatibility: text,
    metadata: z.record(text),
  })
  .partial()
  .passthrough();

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
  'context',
  'agent',
  'hooks',
  'when_to_use',
];
export const MANIFEST_KEYS = Object.keys(manifestSchema.shape);
