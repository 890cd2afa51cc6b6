/**
 * The checks that `validate` runs, by readable name. Ids are stable and never reused; lint rules continue the
 * same numbering from SK100 so one id space covers every finding.
 */
export const CHECKS = {
  'frontmatter-missing': { id: 'SK001', description: 'SKILL.md begins with a YAML frontmatter block opened by ---' },
  'frontmatter-unclosed': {
    id: 'SK002',
    description: 'the frontmatter is closed by a line that is --- (spaces after it allowed)',
  },
  'yaml-syntax': { id: 'SK003', description: 'the frontmatter is YAML that parses' },
  'frontmatter-not-mapping': { id: 'SK004', description: 'the frontmatter is a mapping of keys to values' },
  'name-required': { id: 'SK005', description: 'name is present and not empty' },
  'name-length': { id: 'SK006', description: 'name is at most 64 characters' },
  'name-lowercase': { id: 'SK007', description: 'name is lowercase' },
  'name-hyphens': { id: 'SK008', description: 'name has no leading, trailing or doubled hyphen' },
  'name-characters': { id: 'SK009', description: 'name holds only letters, digits and hyphens' },
  'name-matches-folder': { id: 'SK010', description: "name equals the skill folder's name (NFKC)" },
  'description-required': { id: 'SK011', description: 'description is present and not empty' },
  'description-length': { id: 'SK012', description: 'description is at most 1024 characters' },
  'compatibility-format': { id: 'SK013', description: 'compatibility is text of 1 to 500 characters' },
  'metadata-format': { id: 'SK014', description: 'metadata maps text keys to text values' },
  'field-type': { id: 'SK015', description: 'every known field has the type the layout defines' },
  'unknown-key': { id: 'SK016', description: 'frontmatter keys and manifest fields are known ones' },
  'scalar-as-text': { id: 'SK017', description: 'numbers and booleans in text fields are quoted' },
  'skill-file-name': { id: 'SK018', description: 'the skill file is named SKILL.md' },
  'file-too-large': { id: 'SK019', description: 'the skill file is a regular file small enough to read' },
  'json-syntax': { id: 'SK020', description: 'manifest.json is JSON that parses' },
  'manifest-required': { id: 'SK021', description: 'manifest.json has id, name, version, description and owner' },
  'id-format': { id: 'SK022', description: 'the manifest id is lowercase letters, digits and hyphens' },
  'version-semver': { id: 'SK023', description: 'version is a strict semantic version (1.2.3)' },
  'path-exists': { id: 'SK024', description: 'every declared file exists' },
  'path-inside': {
    id: 'SK025',
    description:
      'the skill file and every declared file stay inside the skill (no .., absolute path or outward symlink)',
  },
  'script-executable': { id: 'SK026', description: 'declared scripts have the execute bit' },
  'env-example': { id: 'SK027', description: '.env.example exists and names every envVars entry' },
  'mcp-server': { id: 'SK028', description: 'mcpServers entries are well formed' },
  'dependency-spec': { id: 'SK029', description: 'dependencies are id or id@range' },
  'node-version': { id: 'SK030', description: 'nodeVersion is a valid semver range' },
  'trigger-pattern': { id: 'SK031', description: 'trigger patterns compile and cannot backtrack catastrophically' },
  'toolset-format': { id: 'SK032', description: 'toolsets entries are path:Export with the file present' },
  'layout-conflict': { id: 'SK033', description: 'a folder holds one skill file, not both layouts' },
  'control-characters': {
    id: 'SK034',
    description: 'no control character a terminal obeys (escape sequences, carriage returns) in the skill file',
  },
  'invisible-characters': {
    id: 'SK035',
    description: 'no bidirectional override or invisible character (zero-width, tag) that hides text from a reviewer',
  },
  'name-confusable': {
    id: 'SK036',
    description: 'the name neither mixes scripts nor is written in letters that only look Latin',
  },
  'text-encoding': {
    id: 'SK037',
    description: 'the skill file and its instructions are UTF-8: no byte that is not, read as U+FFFD',
  },
  'file-unreadable': {
    id: 'SK038',
    description: 'the skill file can be read by the user running skills (its mode and owner allow it)',
  },
  'file-name-encoding': {
    id: 'SK039',
    description: 'every file and folder name in the skill is UTF-8: pack and install refuse a name that is not',
  },
} as const satisfies Record<string, { id: string; description: string }>;

export type CheckName = keyof typeof CHECKS;
