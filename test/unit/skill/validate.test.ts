import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../src/skill/load.js';
import { validateSkills } from '../../../src/skill/validate.js';
import { suggestName, closest } from '../../../src/skill/names.js';
import { isStrictSemver } from '../../../src/model/spec.js';
import { CHECKS, type CheckName } from '../../../src/model/checks.js';
import { skillMd, writeTree, type TreeSpec } from '../../helpers/tree.js';
import { tempDir } from '../../helpers/cli.js';

const tmp = tempDir('skills-validate-');
afterAll(tmp.cleanup);
let n = 0;

async function check(folder: string, tree: TreeSpec, options: { spec?: boolean } = {}) {
  const root = join(tmp.dir, String(n++), folder);
  writeTree(root, tree);
  const [report] = await validateSkills([loadSkill(root, options)], options);
  return report!;
}

const md = (fm: string, body?: string) => ({ 'SKILL.md': skillMd(fm, body) });
const good = 'name: good\ndescription: Does a thing. Use when the user asks for it.\n';
const manifest = (fields: Record<string, unknown>) =>
  JSON.stringify(
    { id: 'm', name: 'M', version: '1.0.0', description: 'Does M. Use when M.', owner: 'built-in', ...fields },
    null,
    2,
  );

// Every check of validate: a case that passes it and one that fails it, with what the message must say.
const cases: {
  check: CheckName;
  folder: string;
  valid: TreeSpec;
  invalid: TreeSpec;
  says: RegExp;
  spec?: boolean;
  severity?: string;
  /** Root reads any file: the case runs only as another user (test/e2e/unreadable.test.ts runs it as nobody). */
  asUser?: boolean;
}[] = [
  {
    check: 'frontmatter-missing',
    folder: 'good',
    valid: md(good),
    invalid: { 'SKILL.md': '# Title\n' },
    says: /must begin with YAML frontmatter/,
  },
  {
    check: 'frontmatter-unclosed',
    folder: 'good',
    valid: md(good),
    invalid: { 'SKILL.md': `---\n${good}` },
    says: /not closed/,
  },
  {
    check: 'yaml-syntax',
    folder: 'good',
    valid: md(good),
    invalid: md('name: good\ndescription: Use when: x\n'),
    says: /does not parse/,
  },
  {
    check: 'frontmatter-not-mapping',
    folder: 'good',
    valid: md(good),
    invalid: { 'SKILL.md': '---\n- a\n---\n' },
    says: /mapping/,
  },
  {
    check: 'name-required',
    folder: 'good',
    valid: md(good),
    invalid: md('description: Does things. Use when asked.\n'),
    says: /name is missing.*name: good/,
  },
  {
    check: 'name-length',
    folder: 'a'.repeat(65),
    valid: md(good),
    invalid: md(`name: ${'a'.repeat(65)}\ndescription: Long. Use when x.\n`),
    says: /65 characters long; at most 64/,
  },
  {
    check: 'name-length',
    folder: '\u{20000}'.repeat(60),
    valid: md(`name: ${'\u{20000}'.repeat(60)}\ndescription: Long. Use when x.\nmetadata:\n  version: 1.0.0\n`),
    invalid: md(
      `name: ${'\u{20000}'.repeat(60)}\ndescription: Long. Use when x.\nmetadata:\n  version: 1.0.0-beta.1\n`,
    ),
    says: /name is 240 bytes long in UTF-8: the archive named after it \(.*-1\.0\.0-beta\.1\.tgz\) would be 257 bytes/,
  },
  {
    check: 'name-lowercase',
    folder: 'Good',
    valid: md(good),
    invalid: md('name: Good\ndescription: d. Use when x.\n'),
    says: /must be lowercase: expected "good"/,
  },
  {
    check: 'name-hyphens',
    folder: '-good',
    valid: md(good),
    invalid: md('name: -good\ndescription: d. Use when x.\n'),
    says: /start or end with a hyphen/,
  },
  {
    check: 'name-characters',
    folder: 'go_od',
    valid: md(good),
    invalid: md('name: go_od\ndescription: d. Use when x.\n'),
    says: /only letters, digits and hyphens: expected e.g. "go-od"/,
  },
  {
    check: 'name-matches-folder',
    folder: 'other',
    valid: {},
    invalid: md(good),
    says: /does not match its folder "other"/,
  },
  {
    check: 'description-required',
    folder: 'good',
    valid: md(good),
    invalid: md('name: good\ndescription: ""\n'),
    says: /description is empty/,
  },
  {
    check: 'description-length',
    folder: 'good',
    valid: md(good),
    invalid: md(`name: good\ndescription: ${'x'.repeat(1025)}\n`),
    says: /1025 characters long; at most 1024/,
  },
  {
    check: 'compatibility-format',
    folder: 'good',
    valid: md(`${good}compatibility: Python 3.10+\n`),
    invalid: md(`${good}compatibility: ${'c'.repeat(501)}\n`),
    says: /1-500 characters, found 501/,
  },
  {
    check: 'metadata-format',
    folder: 'good',
    valid: md(`${good}metadata:\n  author: me\n`),
    invalid: md(`${good}metadata:\n  - author\n`),
    says: /metadata must be a mapping, found a list/,
  },
  {
    // OpenClaw (`metadata.openclaw`) and Hermes keep their settings as a mapping under one key: a warning, no error.
    check: 'metadata-format',
    folder: 'good',
    valid: md(`${good}metadata:\n  author: me\n`),
    invalid: md(`${good}metadata:\n  openclaw:\n    requires:\n      bins: [gh]\n`),
    says: /metadata.openclaw is a mapping, not text/,
    severity: 'warning',
  },
  {
    check: 'field-type',
    folder: 'good',
    valid: md(`${good}allowed-tools: Read Write\n`),
    invalid: md(`${good}allowed-tools:\n  Read: yes\n`),
    says: /allowed-tools must be text.*found a mapping/,
  },
  {
    check: 'unknown-key',
    folder: 'good',
    // Claude Code's own keys (its skills reference): trailofbits' skills set effort.
    valid: md(`${good}argument-hint: "[file]"\neffort: high\npaths:\n  - "src/**/*.c"\nshell: bash\n`),
    invalid: md(`${good}descripton: typo\n`),
    says: /did you mean "description"/,
    severity: 'warning',
  },
  {
    check: 'scalar-as-text',
    folder: 'good',
    valid: md(`${good}version: "1.0.0"\n`),
    invalid: md(`${good}license: 2\n`),
    says: /read as the text "2", not as a number/,
    severity: 'warning',
  },
  {
    check: 'skill-file-name',
    folder: 'good',
    valid: md(good),
    invalid: { 'skill.md': skillMd(good) },
    says: /named skill.md/,
    severity: 'warning',
  },
  {
    check: 'file-too-large',
    folder: 'good',
    valid: md(good),
    invalid: md(good, 'x'.repeat(4 * 1024 * 1024 + 1)),
    says: /at most 4194304 bytes/,
  },
  {
    check: 'file-unreadable',
    folder: 'good',
    valid: md(good),
    invalid: { 'SKILL.md': { content: skillMd(good), mode: 0o000 } },
    says: /^SKILL.md cannot be read: permission denied$/,
    asUser: true,
  },
  {
    check: 'json-syntax',
    folder: 'm',
    valid: { 'manifest.json': manifest({}) },
    invalid: { 'manifest.json': '{"id": "m",}' },
    says: /not valid JSON.*line 1, column 12/,
  },
  {
    check: 'manifest-required',
    folder: 'm',
    valid: { 'manifest.json': manifest({}) },
    invalid: { 'manifest.json': manifest({ owner: undefined }) },
    says: /owner is missing/,
  },
  {
    check: 'manifest-required',
    folder: 'Price Tracker',
    valid: { 'manifest.json': manifest({ id: 'price-tracker' }) },
    invalid: { 'manifest.json': manifest({ id: undefined }) },
    says: /id is missing: expected e\.g\. "id": "price-tracker"/,
  },
  {
    check: 'id-format',
    folder: 'm',
    valid: { 'manifest.json': manifest({}) },
    invalid: { 'manifest.json': manifest({ id: 'My_Skill' }) },
    says: /expected e.g. "my-skill"/,
  },
  {
    check: 'version-semver',
    folder: 'm',
    valid: { 'manifest.json': manifest({ version: '1.0.0-beta.1' }) },
    invalid: { 'manifest.json': manifest({ version: 'v1.0' }) },
    says: /not a semantic version/,
  },
  {
    check: 'path-exists',
    folder: 'm',
    valid: { 'manifest.json': manifest({ context: ['context/a.md'] }), 'context/a.md': '# A' },
    invalid: { 'manifest.json': manifest({ context: ['context/a.md'] }) },
    says: /context\[0\] "context\/a.md" does not exist/,
  },
  {
    check: 'path-inside',
    folder: 'm',
    valid: { 'manifest.json': manifest({ context: ['./a.md'] }), 'a.md': '# A' },
    invalid: { 'manifest.json': manifest({ context: ['../a.md'] }) },
    says: /leads out of the skill/,
  },
  {
    check: 'script-executable',
    folder: 'm',
    valid: {
      'manifest.json': manifest({ scripts: ['scripts/x.sh'] }),
      'scripts/x.sh': { content: '#!/bin/sh\n', mode: 0o755 },
    },
    invalid: {
      'manifest.json': manifest({ scripts: ['scripts/x.sh'] }),
      'scripts/x.sh': { content: '#!/bin/sh\n', mode: 0o644 },
    },
    says: /not executable/,
  },
  {
    check: 'env-example',
    folder: 'm',
    valid: { 'manifest.json': manifest({ envVars: ['API_KEY'] }), '.env.example': '# key\nAPI_KEY=\n' },
    invalid: { 'manifest.json': manifest({ envVars: ['API_KEY', 'OTHER'] }), '.env.example': 'API_KEY=\n' },
    says: /does not name OTHER/,
  },
  {
    check: 'mcp-server',
    folder: 'm',
    valid: { 'manifest.json': manifest({ mcpServers: [{ name: 'r', type: 'remote', url: 'https://x.example/api' }] }) },
    invalid: { 'manifest.json': manifest({ mcpServers: [{ name: 'l', type: 'local' }] }) },
    says: /mcpServers\[0\].command is required/,
  },
  {
    check: 'dependency-spec',
    folder: 'm',
    valid: { 'manifest.json': manifest({ dependencies: ['basic-tools', 'x@^1.2.0', 'y@1.0.0'] }) },
    invalid: { 'manifest.json': manifest({ dependencies: ['basic-tools@latest!'] }) },
    says: /no valid version or semver range/,
  },
  {
    check: 'dependency-spec',
    folder: 'm',
    valid: { 'manifest.json': manifest({ dependencies: ['basic-tools'] }) },
    // A package requirement is an error in a manifest, whose dependencies are skills by its definition.
    invalid: { 'manifest.json': manifest({ dependencies: ['torch>=2.9.0'] }) },
    says: /"torch>=2.9.0" is not a skill spec/,
  },
  {
    // In SKILL.md (no dependencies in its standard; public skills list their pip packages), a warning.
    check: 'dependency-spec',
    folder: 'good',
    valid: md(`${good}dependencies: [basic-tools@^1.0.0, torch]\n`),
    invalid: md(`${good}dependencies: [torch>=2.9.0, "vllm[all]", "@sveltejs/kit", node >= 20]\n`),
    says: /dependencies\[0\]: "torch>=2\.9\.0" is a package requirement \(pip, npm\), not a skill; skills does not install it/,
    severity: 'warning',
  },
  {
    // A skill named by its folder path (PranavNagrecha/AwesomeSalesforceSkills: `admin/health-cloud-patient-setup`) is
    // told apart from a package, and the id to write is named.
    check: 'dependency-spec',
    folder: 'good',
    valid: md(`${good}dependencies: [health-cloud-patient-setup]\n`),
    invalid: md(`${good}dependencies: [admin/health-cloud-patient-setup@^1.0.0]\n`),
    says: /dependencies\[0\]: "admin\/health-cloud-patient-setup@\^1\.0\.0" names a skill by its folder path; a dependency is a skill id \(or id@range\), so skills leaves it out/,
    severity: 'warning',
  },
  {
    check: 'node-version',
    folder: 'm',
    valid: { 'manifest.json': manifest({ nodeVersion: '20' }) },
    invalid: { 'manifest.json': manifest({ nodeVersion: '>= twenty' }) },
    says: /not a semver range/,
  },
  {
    check: 'trigger-pattern',
    folder: 'good',
    valid: md(`${good}triggers:\n  patterns: ["greet\\\\s+\\\\w+"]\n`),
    invalid: md(`${good}triggers:\n  patterns:\n    - "(a+)+$"\n`),
    says: /backtrack catastrophically/,
  },
  {
    check: 'toolset-format',
    folder: 'good',
    valid: {
      ...md(`${good}toolsets:\n  - "toolsets/index:Hello"\n`),
      'toolsets/index.ts': 'export const Hello = [];\n',
    },
    invalid: md(`${good}toolsets:\n  - "toolsets/index"\n`),
    says: /must be path:Export/,
  },
  {
    check: 'layout-conflict',
    folder: 'good',
    valid: md(good),
    invalid: { ...md(good), 'manifest.json': '{}' },
    says: /both SKILL.md and manifest.json/,
    severity: 'warning',
  },
  {
    check: 'control-characters',
    folder: 'good',
    valid: md(good, '# Good\n\nColours are written \\x1b[31m, as text.\n'),
    invalid: md('name: good\ndescription: "Use when asked. \\e]52;c;aGk=\\a"\n'),
    says: /U\+001B \(ESC\), U\+0007 \(BEL\) in description: a control character/,
  },
  {
    check: 'invisible-characters',
    folder: 'good',
    valid: md('name: good\ndescription: Use when writing می\u200cخواهم in Persian.\n'),
    invalid: md(good, '# Good\n\nSafe\u202e text.\n'),
    says: /U\+202E \(right-to-left override\) in the instructions: a bidirectional control/,
    severity: 'warning',
  },
  {
    check: 'name-confusable',
    folder: '\u0440df',
    valid: md(good),
    invalid: md('name: \u0440df\ndescription: Use when reading PDF files.\n'),
    says: /name "\u0440df" mixes scripts \(Cyrillic, Latin\): it reads as "pdf"/,
    severity: 'warning',
  },
  {
    check: 'text-encoding',
    folder: 'good',
    valid: md(good, '# Good\n\nCaf\u00e9 na\u00efve \u2014 \u{1f680} fine.\n'),
    invalid: md(good, '# Good\n\n## \ufffd PostgreSQL features\n'),
    says: /^the replacement character U\+FFFD: text that is not UTF-8, or was broken by an earlier conversion/,
    severity: 'warning',
  },
];

describe('validate checks', () => {
  it('covers every check with a case', () => {
    // SK039's case needs a name made of bytes, which the table's trees cannot write: it has its own test below.
    expect(new Set([...cases.map((c) => c.check), 'file-name-encoding'])).toEqual(new Set(Object.keys(CHECKS)));
  });

  it.skipIf(process.platform === 'darwin' || process.platform === 'win32')(
    'SK039 file-name-encoding: a name inside the skill that is not UTF-8, with its bytes escaped',
    async () => {
      const dir = join(tmp.dir, 'sk039', 'good');
      writeTree(dir, md(good, '# Good\n\nSee caf\ufffd.txt.\n'));
      const bad = Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]);
      writeFileSync(bad, 'x\n');
      // A name that holds a real U+FFFD is UTF-8: no finding.
      writeFileSync(join(dir, 'real\ufffd.txt'), 'x\n');
      const [r] = await validateSkills([loadSkill(dir)]);
      const found = r!.diagnostics.filter((d) => d.rule === 'file-name-encoding');
      expect(found.map((d) => [d.ruleId, d.severity, d.file])).toEqual([['SK039', 'warning', `${dir}/caf\\xe9.txt`]]);
      expect(found[0]!.message).toMatch(
        /^its name is not UTF-8 \(bytes shown escaped\): skills pack and install refuse/,
      );
      expect(r!.valid).toBe(true);
    },
  );

  it.skipIf(process.platform === 'darwin' || process.platform === 'win32')(
    'SK039: not of a name that pack leaves out (.skillignore, a folder .gitignore, a secret), as pack does not refuse it',
    async () => {
      const dir = join(tmp.dir, 'sk039-ignored', 'good');
      writeTree(dir, {
        ...md(good, '# Good\n'),
        '.skillignore': 'caf*.txt\n',
        'notes/.gitignore': 'old-*\n',
        'notes/keep.md': 'x\n',
      });
      const named = (...parts: (string | number[])[]) =>
        Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
      writeFileSync(named(`${dir}/caf`, [0xe9], '.txt'), 'x\n');
      writeFileSync(named(`${dir}/notes/old-`, [0xe9], '.md'), 'x\n');
      writeFileSync(named(`${dir}/.env.`, [0xe9]), 'x\n');
      // Kept by pack: still a warning.
      writeFileSync(named(`${dir}/notes/new-`, [0xe9], '.md'), 'x\n');
      const [r] = await validateSkills([loadSkill(dir)]);
      const found = r!.diagnostics.filter((d) => d.rule === 'file-name-encoding');
      expect(found.map((d) => d.file)).toEqual([`${dir}/notes/new-\\xe9.md`]);
    },
  );

  for (const c of cases) {
    it.skipIf(c.asUser && process.getuid?.() === 0)(`${CHECKS[c.check].id} ${c.check}`, async () => {
      if (Object.keys(c.valid).length > 0) {
        const ok = await check(
          c.check === 'name-length' ||
            c.check === 'name-lowercase' ||
            c.check === 'name-hyphens' ||
            c.check === 'name-characters'
            ? 'good'
            : c.folder,
          c.valid,
          { spec: c.spec },
        );
        expect(ok.diagnostics.filter((d) => d.rule === c.check)).toEqual([]);
      }
      const bad = await check(c.folder, c.invalid, { spec: c.spec });
      const found = bad.diagnostics.filter((d) => d.rule === c.check);
      expect(found.length, JSON.stringify(bad.diagnostics, null, 1)).toBeGreaterThan(0);
      expect(found[0]!.message).toMatch(c.says);
      expect(found[0]!.ruleId).toBe(CHECKS[c.check].id);
      expect(found[0]!.severity).toBe(c.severity ?? 'error');
      expect(found[0]!.file).toMatch(/(SKILL|skill)\.md$|manifest\.json$/);
    });
  }
});

describe('validate details', () => {
  it('offers only valid names to make a name and its folder match', async () => {
    const hint = async (folder: string, name: string) =>
      (await check(folder, md(`name: ${JSON.stringify(name)}\ndescription: d. Use when x.\n`))).diagnostics.find(
        (d) => d.rule === 'name-matches-folder',
      )!.hint;
    expect(await hint('other', 'good')).toBe('rename the folder to good, or set name: other');
    expect(await hint('Web_Scraping', 'web-scraping')).toBe('rename the folder to web-scraping');
    expect(await hint('with-space', 'with space')).toBe('set name: with-space');
    expect(await hint('Two_Bad', 'Also Bad')).toBe('give both the folder and name: one valid name, e.g. also-bad');
  });

  it('warns, and does not fail, on what real skills write loosely: allowed-tools as a list, a SKILL.md version "1.0"', async () => {
    const r = await check('good', md(`${good}version: v1.2\nallowed-tools:\n  - Read\n  - Bash(git:*)\n`));
    expect(r.valid).toBe(true);
    const tools = r.diagnostics.find((d) => d.rule === 'field-type')!;
    expect([tools.severity, tools.message, tools.hint]).toEqual([
      'warning',
      'allowed-tools must be text (space-separated tool names), found a list',
      'write it as one string: allowed-tools: Read Bash(git:*)',
    ]);
    const version = r.diagnostics.find((d) => d.rule === 'version-semver')!;
    expect([version.severity, version.line, version.hint]).toEqual(['warning', 4, 'write version: 1.2.0']);
    // metadata.version, which versions a SKILL.md without a top-level version, is checked the same way: sync,
    // pack and install refuse "1.0.01", so validate says so first.
    const meta = await check('good', md(`${good}metadata:\n  author: me\n  version: "1.0.01"\n`));
    expect(meta.valid).toBe(true);
    const metaVersion = meta.diagnostics.find((d) => d.rule === 'version-semver')!;
    expect([metaVersion.severity, metaVersion.message, metaVersion.line, metaVersion.hint]).toEqual([
      'warning',
      'metadata.version "1.0.01" is not a semantic version: expected MAJOR.MINOR.PATCH, e.g. "1.0.1"',
      6,
      'write metadata.version: 1.0.1',
    ]);
    // A list holding other than text, and a manifest's version, stay errors.
    expect((await check('good', md(`${good}allowed-tools:\n  - Read\n  - {a: 1}\n`))).valid).toBe(false);
    expect(
      (await check('m', { 'manifest.json': manifest({ version: '1.0' }) })).diagnostics.find(
        (d) => d.rule === 'version-semver',
      )?.severity,
    ).toBe('error');
  });

  it('warns of text that is not UTF-8 where it first stands, counting the places, in SKILL.md and context files', async () => {
    const latin1 = (t: string) => Buffer.from(t, 'latin1');
    const body = join(tmp.dir, 'latin-body');
    mkdirSync(body, { recursive: true });
    writeFileSync(
      join(body, 'SKILL.md'),
      latin1('---\nname: latin-body\ndescription: Plain.\n---\n# T\n\nLine\ncaf\u00e9 and na\u00efve\n'),
    );
    const [b] = await validateSkills([loadSkill(body)]);
    const found = b!.diagnostics.filter((d) => d.rule === 'text-encoding');
    expect(found.map((d) => [d.ruleId, d.severity, d.line, d.column])).toEqual([['SK037', 'warning', 8, 4]]);
    expect(found[0]!.message).toMatch(/U\+FFFD \(2 places\)/);
    expect(b!.valid).toBe(true);

    // In the frontmatter: at the field, counted with the body's.
    const front = join(tmp.dir, 'latin-front');
    mkdirSync(front, { recursive: true });
    writeFileSync(
      join(front, 'SKILL.md'),
      latin1('---\nname: latin-front\nlicense: MIT\ndescription: Caf\u00e9 things.\n---\nna\u00efve\n'),
    );
    const [f] = await validateSkills([loadSkill(front)]);
    expect(f!.diagnostics.filter((d) => d.rule === 'text-encoding').map((d) => [d.line, d.message])).toEqual([
      [4, expect.stringContaining('(2 places)')],
    ]);

    // A manifest skill's context file: reported in that file.
    const man = join(tmp.dir, 'latin-manifest');
    writeTree(man, {
      'manifest.json': manifest({ id: 'latin-manifest', context: ['context/guide.md'] }),
      'context/guide.md': '',
    });
    writeFileSync(join(man, 'context/guide.md'), latin1('# Guide\n\nd\u00e9j\u00e0 vu\n'));
    const [m] = await validateSkills([loadSkill(man)]);
    const inContext = m!.diagnostics.filter((d) => d.rule === 'text-encoding');
    expect(inContext.map((d) => [d.file, d.line, d.column])).toEqual([[join(man, 'context/guide.md'), 3, 2]]);
  });

  it('gives file line and column of the offending key', async () => {
    const r = await check('good', md('description: d. Use when x.\nname: Good\n'));
    const d = r.diagnostics.find((x) => x.rule === 'name-lowercase')!;
    expect([d.line, d.column]).toEqual([3, 1]);
  });

  it('tolerates a BOM and CRLF', async () => {
    const r = await check('good', { 'SKILL.md': `\ufeff---\r\n${good.replace(/\n/g, '\r\n')}---\r\nBody\r\n` });
    expect(r.valid).toBe(true);
    expect(r.diagnostics).toEqual([]);
  });

  it('compares name and folder after NFKC and counts code points', async () => {
    // "ﬁ" (U+FB01) is "fi" under NFKC; "é" composed or decomposed is the same name.
    expect((await check('fi-x', md('name: ﬁ-x\ndescription: d. Use when x.\n'))).valid).toBe(true);
    expect((await check('café', md('name: cafe\u0301\ndescription: d. Use when x.\n'))).valid).toBe(true);
    expect((await check('日本語', md('name: 日本語\ndescription: d. Use when x.\n'))).valid).toBe(true);
    const long = 'é'.repeat(64);
    expect((await check(long, md(`name: ${long}\ndescription: d. Use when x.\n`))).valid).toBe(true);
  });

  it('refuses combining marks that do not compose into letters', async () => {
    // a + U+0308 composes into ä: a letter. x + U+0301 has no composed form: a mark, not a letter.
    const r = await check('a\u0308x', md('name: a\u0308x\ndescription: d. Use when x.\n'));
    expect(r.diagnostics.map((d) => d.rule)).toEqual([]);
    const bad = await check('x\u0301\u0301', md('name: x\u0301\u0301\ndescription: d. Use when x.\n'));
    expect(bad.diagnostics.map((d) => d.rule)).toContain('name-characters');
  });

  it('reads a plain list of triggers as keywords, with a warning that shows the mapping', async () => {
    const r = await check('good', md(`${good}triggers:\n  - deploy the app\n  - ship it\n`));
    expect(r.valid).toBe(true);
    const d = r.diagnostics.find((x) => x.rule === 'field-type')!;
    expect(d).toMatchObject({
      severity: 'warning',
      message: 'triggers is a list; it is read as triggers.keywords',
      line: 4,
    });
    expect(d.hint).toContain('keywords: ["deploy the app", "ship it"]');
    expect(r.skill.triggers?.keywords).toEqual(['deploy the app', 'ship it']);
  });

  it('says where an unknown key can go', async () => {
    const r = await check('good', md(`${good}author: ann\n`));
    expect(r.diagnostics[0]!.hint).toContain('move it under metadata:');
  });

  it('reads metadata.version as the version', () => {
    const root = join(tmp.dir, 'meta', 'good');
    writeTree(root, md(`${good}metadata:\n  version: "2.3.4"\n  author: ann\n`));
    const s = loadSkill(root);
    expect(s.version).toBe('2.3.4');
    expect(s.owner).toBe('ann');
  });

  it('refuses a symlinked script that leads out of the skill', async () => {
    const r = await check('m', {
      'manifest.json': manifest({ scripts: ['scripts/x.sh'] }),
      'scripts/x.sh': { symlink: '/bin/sh' },
    });
    expect(r.diagnostics.find((d) => d.rule === 'path-inside')?.message).toMatch(/symlink that leads out of the skill/);
  });

  it('refuses a path through a symlinked folder that leads out of the skill', async () => {
    const r = await check('m', {
      'manifest.json': manifest({ context: ['context/a.md'] }),
      context: { symlink: '/etc' },
    });
    expect(r.diagnostics.find((d) => d.rule === 'path-inside')?.message).toMatch(
      /goes through context, a symlink that leads out/,
    );
  });

  it('loads the manifest layout into the same model', () => {
    const root = join(tmp.dir, 'model', 'm');
    writeTree(root, {
      'manifest.json': manifest({
        context: ['context/a.md', 'context/b.md'],
        scripts: ['scripts/x.sh'],
        envVars: ['K'],
        dependencies: ['basic-tools@^1.0.0'],
        mcpServers: [{ name: 's', type: 'local', command: 'node', args: ['s.js'] }],
      }),
      'context/a.md': '# A\n',
      'context/b.md': '# B\n',
      'scripts/x.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      'scripts/extra.py': '#!/usr/bin/env python3\n',
      '.env.example': 'K=\n',
    });
    const s = loadSkill(root);
    expect(s.layout).toBe('manifest');
    expect(s.instructions).toBe('# A\n\n\n# B\n');
    expect(s.scripts.map((x) => [x.path, x.declared, x.exists])).toEqual([
      ['scripts/x.sh', true, true],
      ['scripts/extra.py', false, true],
    ]);
    expect(s.dependencies).toEqual([{ raw: 'basic-tools@^1.0.0', id: 'basic-tools', range: '^1.0.0', exact: false }]);
    expect(s.mcpServers[0]).toMatchObject({ name: 's', command: 'node' });
    expect(s.envExample).toEqual(['K']);
    expect(s.positions['context[1]']).toEqual({ line: 9, column: 5 });
  });
});

describe('--spec (the reference validator)', () => {
  // Verdicts as skills-ref's validator.py gives them (strictyaml reads every scalar as text; it strips name,
  // not description, before measuring; it checks compatibility only for type and length).
  const verdicts: [string, string, string, boolean][] = [
    ['good', 'trimmed name', 'name: " good "\ndescription: d\n', true],
    ['good', 'blank description', 'name: good\ndescription: "   "\n', false],
    ['good', '1024-character description', `name: good\ndescription: ${'d'.repeat(1024)}\n`, true],
    ['good', '1025-character description', `name: good\ndescription: ${'d'.repeat(1025)}\n`, false],
    ['good', 'description padded past 1024', `name: good\ndescription: "${'d'.repeat(1023)}  "\n`, false],
    ['good', '500-character compatibility', `name: good\ndescription: d\ncompatibility: ${'c'.repeat(500)}\n`, true],
    ['good', '501-character compatibility', `name: good\ndescription: d\ncompatibility: ${'c'.repeat(501)}\n`, false],
    ['good', 'metadata as text', 'name: good\ndescription: d\nmetadata: plain\n', true],
    ['good', 'numbers read as text', 'name: good\ndescription: 12\nlicense: 2.0\n', true],
    ['Good', 'uppercase name', 'name: Good\ndescription: d\n', false],
    ['good', 'name not a string', 'name:\n  - good\ndescription: d\n', false],
    ['good', 'client key', 'name: good\ndescription: d\nargument-hint: x\n', false],
    ['good', 'cut at the first --- anywhere', 'name: good\ndescription: a---b\nextra: 1\n', true],
  ];
  for (const [folder, what, fm, valid] of verdicts) {
    it(`${valid ? 'accepts' : 'rejects'}: ${what}`, async () => {
      const r = await check(folder, { 'SKILL.md': `---\n${fm}---\nbody\n` }, { spec: true });
      expect(r.valid, JSON.stringify(r.diagnostics)).toBe(valid);
    });
  }

  it('makes extension and client keys errors', async () => {
    const r = await check('good', md(`${good}version: 1.0.0\n`), { spec: true });
    expect(r.valid).toBe(false);
    expect(r.diagnostics[0]!.message).toMatch(/"version" is not a field of the Agent Skills specification/);
  });
  it('accepts what the reference accepts: nested metadata, allowed-tools lists, empty compatibility', async () => {
    const r = await check(
      'good',
      md(`${good}metadata:\n  a:\n    b: c\nallowed-tools:\n  - Read\ncompatibility: ""\n`),
      { spec: true },
    );
    expect(r.diagnostics).toEqual([]);
  });
  it('rejects a BOM, as the reference does', async () => {
    const r = await check('good', { 'SKILL.md': `\ufeff${skillMd(good)}` }, { spec: true });
    expect(r.diagnostics[0]!.rule).toBe('frontmatter-missing');
  });
  it('rejects the manifest layout', async () => {
    const r = await check('m', { 'manifest.json': manifest({}) }, { spec: true });
    expect(r.valid).toBe(false);
  });
});

describe('helpers', () => {
  it('suggests valid names', () => {
    expect(suggestName('My Great_Skill!')).toBe('my-great-skill');
    expect(suggestName('--')).toBe('my-skill');
    expect(suggestName('x'.repeat(80)).length).toBe(64);
  });
  it('finds near misses only', () => {
    expect(closest('descripton', ['name', 'description'])).toBe('description');
    expect(closest('zzz', ['name', 'description'])).toBeUndefined();
  });
  it('knows strict semver', () => {
    expect(isStrictSemver('1.2.3')).toBe(true);
    expect(isStrictSemver('1.2.3-rc.1+build.5')).toBe(true);
    for (const v of ['v1.2.3', '1.2', '=1.2.3', ' 1.2.3', '1.2.3.4']) expect(isStrictSemver(v)).toBe(false);
  });
});

describe('name-characters: names whose only fault is their combining marks', () => {
  it('names the marks and offers no name made by taking them out', async () => {
    for (const [name, marks] of [
      ['डेटा-विश्लेषण', 'U+0947, U+093E, U+093F'],
      ['தமிழ்', 'U+0BBF, U+0BCD'],
    ] as const) {
      const report = await check(
        name,
        md(`name: ${name}\ndescription: Summarise text. Use when asked for a summary.\n`),
      );
      const d = report.diagnostics.find((x) => x.rule === 'name-characters');
      expect(d?.message, name).toContain(`its combining marks (${marks}) are none`);
      expect(d?.message).toContain('expected a name without them, e.g. in Latin letters');
      expect(d?.message).not.toContain('expected e.g.');
    }
    // Other characters still get a suggestion made from the name.
    const other = await check('go_od', md('name: go_od\ndescription: d. Use when x.\n'));
    expect(other.diagnostics.find((x) => x.rule === 'name-characters')?.message).toContain('expected e.g. "go-od"');
  });
});

it('name-lowercase says to rename the folder too when it is named as the name (simota/agent-skills: Anvil/)', async () => {
  const hintOf = async (folder: string) =>
    (await check(folder, md('name: Anvil\ndescription: d. Use when x.\n'))).diagnostics.find(
      (d) => d.rule === 'name-lowercase',
    )!.hint;
  expect(await hintOf('Anvil')).toBe('set name: anvil and rename the folder to anvil: a name matches its folder');
  expect(await hintOf('anvil')).toBe('set name: anvil');
});
