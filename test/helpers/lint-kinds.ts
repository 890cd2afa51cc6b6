// Skills with findings of every kind lint has (each kind of twelve gives other rules' findings, fixable ones among
// them, the tree rule, disable comments and a folder the configuration ignores): the trees the lint --concurrency and
// result cache tests lint.
import { skillMd, type TreeSpec } from './tree.js';

/** The configuration those trees are linted with (it ignores vendor/, where kind 10 goes). */
export const KINDS_CONFIG = JSON.stringify({
  rules: { 'instructions-max-lines': ['warning', { maxLines: 400 }], 'description-too-short': 'error' },
  ignores: ['vendor/**'],
});

/** One skill of kind k % 12: each kind gives findings of other rules, fixable ones among them. */
export function skillOf(k: number): TreeSpec {
  const n = `s${String(k).padStart(3, '0')}`;
  const desc = `Checks ${n} tables against a schema. Use when the user asks to check a table.`;
  const md = (front: string, body: string) => ({ [`${n}/SKILL.md`]: skillMd(front, body) });
  switch (k % 12) {
    case 0:
      return md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRun \`scripts/run.sh\`.\n`);
    case 1:
      // A missing reference, a README, a placeholder, an unreferenced file.
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRead [the guide](references/missing.md). TODO: fill in\n`),
        [`${n}/README.md`]: '# readme\n',
        [`${n}/notes.txt`]: 'stray\n',
      };
    case 2:
      // Fixable YAML slip (a colon in a plain value), and a long body.
      return md(
        `name: ${n}\ndescription: Scrapes pages. Use when: the user wants prices`,
        Array.from({ length: 600 }, (_, i) => `line ${i}`).join('\n'),
      );
    case 3:
      // A duplicate name (tree rule), with a disable comment for another rule.
      return md(
        `name: dup\ndescription: ${desc}`,
        '<!-- skills-lint-disable name-matches-folder -->\n# dup\n\nSteps.\n',
      );
    case 4: {
      // A manifest with a script lacking a shebang and set -e, a secret, env drift (fixable .env.example).
      const manifest = {
        id: n,
        name: n.toUpperCase(),
        version: '1.0.0',
        description: desc,
        owner: 'built-in',
        context: ['context/instructions.md'],
        envVars: ['API_KEY', 'API_SECRET'],
        scripts: ['scripts/post.sh'],
        usedBy: ['x'],
      };
      return {
        [`${n}/manifest.json`]: JSON.stringify(manifest, null, 2),
        [`${n}/.env.example`]: 'API_KEY=\n',
        [`${n}/context/instructions.md`]: `# ${n}\n\nRun \`scripts\\post.sh\`.\n`,
        [`${n}/scripts/post.sh`]: { content: 'echo "$API_KEY $OTHER_TOKEN"\n', mode: 0o644 },
        [`${n}/config.env`]: 'API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\n',
      };
    }
    case 5:
      // Invalid: bad name, a vague, short description.
      return md(`name: Bad_${n}\ndescription: Helps`, '# x\n');
    case 6:
      return { [`${n}/SKILL.md`]: '# no frontmatter at all\n' };
    case 7:
      // A script run by path without its execute bit (fixable), and an empty folder.
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nRun \`scripts/go.sh\`.\n`),
        [`${n}/scripts/go.sh`]: { content: '#!/bin/sh\nset -e\necho go\n', mode: 0o644 },
        [`${n}/assets/.keep`]: '',
      };
    case 8:
      // A deep reference chain and a backslash reference (fixable).
      return {
        ...md(`name: ${n}\ndescription: ${desc}`, `# ${n}\n\nSee references\\a.md and [b](references/b.md).\n`),
        [`${n}/references/a.md`]: '# a\n',
        [`${n}/references/b.md`]: '# b\n\nSee [c](c.md).\n',
        [`${n}/references/c.md`]: '# c\n\nSee [d](d.md).\n',
        [`${n}/references/d.md`]: Array.from({ length: 150 }, (_, i) => `## part ${i}\n\ntext`).join('\n'),
      };
    case 9:
      // Bidirectional and control characters, unknown keys, a number where text is expected.
      return md(`name: ${n}\ndescription: ${desc}\ncolour: blue\nversion: 1.0`, `# ${n}\n\nSafe \u202Etext\u202C.\n`);
    case 10:
      // Ignored by the configuration: no report at all.
      return { [`vendor/${n}/SKILL.md`]: '# ignored, and broken\n' };
    default:
      // Long instructions in tokens (the tokenizer, through the user's token cache).
      return md(
        `name: ${n}\ndescription: ${desc}`,
        `# ${n}\n\n${Array.from({ length: 2500 }, (_, i) => `word${i} table schema check`).join(' ')}\n`,
      );
  }
}
