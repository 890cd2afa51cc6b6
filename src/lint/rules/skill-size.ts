import type { Rule } from '../types.js';

const MIB = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

export default {
  names: ['SK123', 'skill-size'],
  description: 'the skill folder stays small enough to install and pack quickly',
  tags: ['files', 'size'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: keep skills small; load material on demand',
    'Anthropic, Skill authoring best practices: progressive disclosure',
  ],
  fixable: false,
  options: { maxBytes: { default: 8 * MIB, description: 'most bytes the files of the skill may add up to' } },
  check(skill, ctx) {
    const max = ctx.options.maxBytes as number;
    let total = 0;
    const sizes: [string, number][] = [];
    for (const e of skill.entries) {
      // A symlink inside points at a file counted where it lives; one leading out is not the skill's.
      if (e.kind !== 'file') continue;
      const st = ctx.stat(e.path);
      if (!st) continue;
      total += st.size;
      sizes.push([e.path, st.size]);
    }
    if (total <= max) return;
    const largest = sizes.sort((a, b) => b[1] - a[1]).slice(0, 3);
    ctx.report({
      message: `the skill's files add up to ${size(total)}; keep them under ${size(max)}`,
      hint: `largest: ${largest.map(([p, n]) => `${p} (${size(n)})`).join(', ')}; move large data out of the skill, or fetch it when needed`,
    });
  },
} satisfies Rule;
