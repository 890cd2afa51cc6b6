import { expect, it } from 'vitest';
import rule, { LONGEST_TOKEN } from '../../../../src/lint/rules/instructions-max-tokens.js';
import { loadSkill } from '../../../../src/skill/load.js';
import { tokenCounter } from '../../../../src/tokens/tokens.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'Demo. Use when testing.',
  owner: 'built-in',
  context: ['context/a.md', 'context/b.md'],
});

it('instructions-max-tokens', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm) } },
      // 20,000 bytes but 2,500 tokens: over the byte bound, so really tokenized, and under the budget.
      { tree: { 'SKILL.md': skillMd(fm, 'a'.repeat(20000)) } },
      // Special tokens are plain text in a skill: counted, not thrown on.
      { tree: { 'SKILL.md': skillMd(fm, '<|endoftext|> '.repeat(500)) } },
      // Multi-byte text: 14,400 bytes, 3,600 tokens.
      { tree: { 'SKILL.md': skillMd(fm, '日本語のテキスト'.repeat(600)) } },
      { tree: { 'SKILL.md': skillMd(fm, `${'word '.repeat(9)}word`) }, options: { maxTokens: 10 } },
      {
        tree: { 'manifest.json': manifest, 'context/a.md': 'word '.repeat(2000), 'context/b.md': 'word '.repeat(2000) },
      },
      {
        tree: {
          'manifest.json': JSON.stringify({
            id: 'demo',
            name: 'Demo',
            version: '1.0.0',
            description: 'Demo. Use when testing.',
            owner: 'built-in',
          }),
        },
      },
    ],
    invalid: [
      {
        tree: { 'SKILL.md': skillMd(fm, 'word '.repeat(6000)) },
        messages: [/6001 tokens long \(o200k_base\); keep them under 5000/],
        lines: [5],
      },
      {
        tree: { 'SKILL.md': skillMd(fm, 'word '.repeat(11)) },
        options: { maxTokens: 10 },
        messages: [/^instructions are 12 tokens long \(o200k_base\); keep them under 10$/],
      },
      { tree: { 'SKILL.md': skillMd(fm, '<|endoftext|> '.repeat(2000)) }, messages: [/\d+ tokens long/] },
      {
        tree: { 'manifest.json': manifest, 'context/a.md': 'word '.repeat(3000), 'context/b.md': 'word '.repeat(3000) },
        messages: [/600\d tokens long/],
        lines: [1],
      },
      // Fewer characters than the budget has tokens, but more bytes: counted (each ꙮ is 3 bytes and 3 tokens).
      {
        tree: { 'SKILL.md': skillMd(fm, 'ꙮ'.repeat(10)) },
        options: { maxTokens: 20 },
        messages: [/^instructions are 3\d tokens long \(o200k_base\); keep them under 20$/],
      },
      // A run without a break is counted in slices: 100,000 backticks are 50,000 tokens, as a whole or sliced.
      {
        tree: { 'SKILL.md': skillMd(fm, `Intro.\n${'`'.repeat(100000)}\nOutro.\n`) },
        messages: [/5000\d tokens long/],
      },
    ],
  }));

it('instructions-max-tokens stays fast on long runs without a break', async () => {
  // Whole, each of these takes BPE many seconds (its cost grows with the square of a run's length). 1.2 MB: a
  // budget of 100,000 tokens has them counted, not estimated.
  const body = `${'TODO'.repeat(100000)} ${' '.repeat(400000)}x\n${'\u{1F600}'.repeat(100000)}\n`;
  const start = performance.now();
  const r = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm, body) }, options: { maxTokens: 100000 } });
  r.cleanup();
  expect(r.reports.map((x) => x.message)).toEqual([expect.stringMatching(/^instructions are \d+ tokens long/)]);
  expect(performance.now() - start).toBeLessThan(5000);
});

it('instructions-max-tokens estimates, never counts, instructions too long to fit the budget however tokenized', async () => {
  // 700,000 bytes: more than 5,000 tokens of the longest kind (128 bytes) could hold.
  const huge = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm, 'word '.repeat(140000)) } });
  const long = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm, 'word '.repeat(6000)) } });
  try {
    expect(huge.reports.map((x) => x.message)).toEqual([
      'instructions are about 175000 tokens long (700000 bytes, too long to count: over 5000 however they are tokenized); keep them under 5000',
    ]);
    const asked: number[] = [];
    const skills = [loadSkill(huge.root), loadSkill(long.root)];
    await rule.prepare!(skills, { maxTokens: 5000 }, { countTokens: async (t) => (asked.push(t.length), 7000) });
    // Only the 30,000-byte body was counted.
    expect(asked).toEqual([skills[1]!.instructionParts[0]!.text.length]);
  } finally {
    huge.cleanup();
    long.cleanup();
  }
});

it('instructions-max-tokens measures the estimate of multi-byte text on a sample, within 10% of its real count', async () => {
  // Over 640,000 bytes each: Cyrillic prose (8 bytes a token), Chinese prose (4), a rare letter (3 bytes, 3 tokens).
  // At 4 bytes a token the first was twice its count and the last a quarter of it.
  const texts = [
    'Файл навыка должен быть кратким и содержать только инструкции, нужные агенту для выполнения задачи.\n'.repeat(
      3600,
    ),
    '技能文件应当简洁明了，只包含代理完成任务所需的说明。详细的参考资料应放在单独的文件中，以便按需加载。\n'.repeat(
      4300,
    ),
    'ꙮ'.repeat(220000),
  ];
  const count = await tokenCounter();
  for (const text of texts) {
    const r = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm, text) } });
    r.cleanup();
    const [message] = r.reports.map((x) => x.message);
    expect(message).toMatch(/^instructions are about \d+ tokens long \(\d+ bytes, too long to count/);
    const about = Number(/about (\d+) tokens/.exec(message!)![1]);
    const real = count(text);
    expect(Math.abs(about - real) / real).toBeLessThan(0.1);
  }
});

it('no o200k_base token covers more bytes than LONGEST_TOKEN, so the estimate is only given when certain', async () => {
  const { default: ranks } = (await import('gpt-tokenizer/bpeRanks/o200k_base')) as { default: (string | number[])[] };
  let longest = 0;
  for (const t of ranks) longest = Math.max(longest, typeof t === 'string' ? Buffer.byteLength(t, 'utf8') : t.length);
  expect(ranks.length).toBeGreaterThan(199_000);
  expect(longest).toBe(LONGEST_TOKEN);
});
