import { isRelevant, skillReferences, type LocatedRef } from '../references.js';
import type { Fix, Rule } from '../types.js';

// A run of backslashes is one separator: `bin\\run` (escaped, as in JSON or a shell's double quotes) is bin/run, not
// bin//run.
const slashed = (path: string): string => path.replace(/\\+/g, '/');
// A Windows shell's script (`.\scripts\check-quota.ps1` in a powershell block beside a bash one, as
// microsoft/azure-skills writes it): PowerShell takes \ as a separator on every system, and cmd runs only on Windows.
const WINDOWS_SCRIPT = /\.(?:ps1|psm1|psd1|bat|cmd)$/i;

export default {
  names: ['SK110', 'file-reference-backslash'],
  description:
    'file references use forward slashes, which work on every system (but a PowerShell or cmd script written as Windows writes it: .\\scripts\\x.ps1)',
  tags: ['references', 'files', 'portability', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: ['Anthropic, Skill authoring best practices: avoid Windows-style paths'],
  fixable: true,
  check(skill, ctx) {
    const byLine = new Map<string, LocatedRef[]>();
    for (const r of skillReferences(skill, ctx.readText).refs) {
      if (!r.path.includes('\\') || WINDOWS_SCRIPT.test(r.path) || !isRelevant(r)) continue;
      const key = `${r.doc.file}\n${r.line}`;
      const list = byLine.get(key);
      if (list) list.push(r);
      else byLine.set(key, [r]);
    }
    for (const refs of byLine.values()) {
      const doc = refs[0]!.doc;
      const current = doc.md.line(refs[0]!.line - doc.line);
      // The fix is safe only where the forward-slash path exists: then it names the same file everywhere.
      const fixable =
        current === undefined
          ? []
          : refs.filter((r) => r.target.status === 'ok' && current.startsWith(r.raw, r.column - 1));
      let fix: Fix | undefined;
      if (fixable.length > 0) {
        let text = '';
        let at = 0;
        for (const r of fixable) {
          text += current!.slice(at, r.column - 1) + slashed(r.raw);
          at = r.column - 1 + r.raw.length;
        }
        text += current!.slice(at);
        fix = {
          description: `use / in ${fixable.map((r) => r.raw).join(', ')}`,
          changes: [{ kind: 'replace', file: doc.file, line: refs[0]!.line, expect: current!, text }],
        };
      }
      for (const r of refs) {
        const own = fixable[0] === r ? fix : undefined;
        ctx.report({
          message: `"${r.path}" uses backslashes; write ${slashed(r.path)}`,
          file: doc.file,
          line: r.line,
          column: r.column,
          hint: 'agents run on Linux and macOS too, where \\ is no path separator; / works everywhere, Windows included',
          ...(own ? { fix: own } : {}),
        });
      }
    }
  },
} satisfies Rule;
