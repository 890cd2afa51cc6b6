import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import rule from '../../../../src/lint/rules/description-when-to-use.js';
import { checkAt, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const md = (description: string) => ({
  'SKILL.md': skillMd(`name: demo\ndescription: ${JSON.stringify(description)}\n`),
});
const manifest = (description: string) => ({
  'manifest.json': JSON.stringify(
    { id: 'demo', name: 'Demo', version: '1.0.0', description, owner: 'built-in' },
    null,
    2,
  ),
});

it('description-when-to-use', () =>
  testRule(rule, {
    valid: [
      { tree: md('Extract text from PDF files. Use when the user mentions PDFs.') },
      { tree: md('Extract text from PDF files. USE THIS SKILL WHEN a PDF is attached.') },
      { tree: md('Fill PDF forms; use it to complete tax forms.') },
      { tree: md('Generates release notes from git history when the user asks for a changelog.') },
      { tree: md('Formats SQL queries, for example to tidy a long SELECT.') },
      { tree: md('Triggers on questions about invoices and receipts.') },
      { tree: md('Converts units. Useful for recipes and engineering sums.') },
      // An adverb between the verb and "after" (trailofbits variant-analysis).
      { tree: md('Hunts for variants of a bug. Use immediately after a bug turns up in one file.') },
      { tree: md('Reviews diffs. Use only when the user asks for a review.') },
      { tree: manifest('Post to social networks. Use for scheduled announcements.') },
      { tree: manifest('Read calendars. Invoke when you need to find a free slot.') },
      // As Anthropic's frontend-design and obra's brainstorming say it: "when" and a gerund; "use this before …".
      { tree: md('Guidance for distinctive visual design when building new UI or reshaping an existing one.') },
      { tree: md('You MUST use this before any creative work - creating features or building components.') },
      { tree: md('Checks the diff. Apply after every refactor.') },
      // A label, then the requests (microsoft/azure-skills, 37 skills).
      {
        tree: md('Run Azure compliance audits with azqr. WHEN: compliance scan, security audit, expired certificates.'),
      },
      // An empty description is validate's to report (SK011).
      { tree: md('') },
      // Chinese: 当…时 ("when …"), …时使用 ("use when …"), 适用于 ("suited to"), 用于…时 ("used when …").
      { tree: md('一组帮助撰写内部沟通文档的资源。当被要求撰写状态报告时，Claude 应使用此技能。') },
      { tree: md('生成动画 GIF 的工具集。当用户请求创建动画 GIF 时使用。') },
      { tree: md('一组帮助撰写各类内部沟通文档的资源，适用于撰写状态报告') },
      { tree: md('发布说明生成工具，用于用户需要整理版本变更时') },
      { tree: md('整理發布說明的工具，當使用者要求產生變更紀錄時使用。') },
      // Japanese: …の場合に使用, …するときに使う, …時に使用.
      { tree: md('PDF からテキストを抽出します。PDF の処理を求められた場合に使用します。') },
      { tree: md('社内報告書のテンプレート集。報告書を書くときに使う。') },
      { tree: md('請求書を読み取るツール。経費精算時に使用。') },
      // Korean: … 때 사용, …할 때.
      { tree: md('PDF에서 텍스트를 추출합니다. 사용자가 PDF를 언급할 때 사용하세요.') },
      { tree: md('사내 보고서 템플릿 모음으로, 주간 보고서를 작성할때 유용합니다.') },
      // Mostly in a script with no known phrasing (Russian, Arabic, Hindi): not judged.
      { tree: md('Извлекает текст и таблицы из PDF-файлов. Используйте, когда пользователь упоминает PDF.') },
      { tree: md('يستخرج النص من ملفات PDF ويملأ النماذج.') },
      { tree: md('PDF फ़ाइलों से टेक्स्ट निकालता है और फ़ॉर्म भरता है।') },
    ],
    invalid: [
      {
        tree: md('Extract text and tables from PDF files and fill forms.'),
        messages: [/does not say when to use the skill; expected a phrase such as "Use when …"/],
        lines: [3],
      },
      { tree: md('Useless descriptions whenabouts user'), messages: [/does not say when/] },
      { tree: md('A guide to the Ming dynasty, when trade flourished.'), messages: [/does not say when/] },
      {
        tree: manifest('Post to Twitter and Instagram and read engagement analytics.'),
        messages: [/does not say when/],
        lines: [5],
      },
      { tree: manifest('A'.repeat(5000)), messages: [/does not say when/] },
      // Chinese, Japanese and Korean are judged too: these only say what the skill does.
      {
        tree: md('使用 Playwright 与本地 Web 应用进行交互和测试的工具包。支持前端功能验证和浏览器截图捕获。'),
        messages: [/does not say when/],
      },
      { tree: md('当前版本的报表工具，生成月度销售图表。'), messages: [/does not say when/] },
      { tree: md('PDF からテキストと表を抽出し、フォームに記入します。'), messages: [/does not say when/] },
      { tree: md('PDF 파일에서 텍스트와 표를 추출하고 양식을 채웁니다.'), messages: [/does not say when/] },
      // Mostly English with a few Cyrillic words: judged by the English phrases.
      { tree: md('Extract text from PDF files and tables, with Кириллица.'), messages: [/does not say when/] },
      { tree: md(`${'当'.repeat(3000)}${'用于'.repeat(3000)}`), messages: [/does not say when/] },
    ],
  }));

it('description-when-to-use passes every example skill', async () => {
  const dir = join(import.meta.dirname, '../../../../examples/skills');
  for (const name of readdirSync(dir)) {
    const { reports } = await checkAt(rule, join(dir, name));
    expect(
      reports.map((r) => r.message),
      name,
    ).toEqual([]);
  }
});
