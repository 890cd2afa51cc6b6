import { afterAll, describe, expect, it } from 'vitest';
import { columns } from '../../src/ui/columns.js';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// Skills written in Chinese or Japanese, listed as a user sees them: names padded and descriptions cut in terminal
// columns (two a wide character), not code points, so that lines keep to their width and columns line up.

const { fresh, cleanup } = tempFolders('skills-wide-text-');
afterAll(cleanup);

const LONG_ZH = '分析CSV和Excel数据，生成图表和统计摘要。当用户要求分析数据、制作图表或计算统计量时使用。'.repeat(3);
const LONG_JA = '日本語と英語の間で文書を翻訳します。ユーザーが翻訳を依頼したときに使用してください。'.repeat(3);

describe('install --list of skills in wide scripts', () => {
  it('cuts each description to 100 columns off a terminal, and lines the descriptions up', async () => {
    const src = fresh();
    writeTree(src, {
      'skills/数据分析/SKILL.md': skillMd(`name: 数据分析\ndescription: ${LONG_ZH}`, '# 数据分析\n'),
      'skills/翻訳ツール/SKILL.md': skillMd(`name: 翻訳ツール\ndescription: ${LONG_JA}`, '# 翻訳\n'),
      'skills/plain-tool/SKILL.md': skillMd(`name: plain-tool\ndescription: ${'Plain words. '.repeat(20)}`, '# x\n'),
    });
    const r = await runCli(['install', src, '--list'], { cwd: fresh() });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('  '));
    expect(lines).toHaveLength(3);
    // The ids padded to the widest (翻訳ツール, 10 columns): every description starts at column 2 + 10 + 2.
    for (const l of lines) {
      const id = l.trim().split(' ')[0]!;
      const description = l.slice(l.indexOf(id) + id.length).trimStart();
      expect(columns(l.slice(0, l.length - description.length)), l).toBe(14);
      expect(columns(description), l).toBeLessThanOrEqual(100);
      expect(columns(description), l).toBeGreaterThanOrEqual(98);
      expect(description.endsWith('…')).toBe(true);
    }
  });
});
