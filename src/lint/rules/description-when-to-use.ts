import type { Rule } from '../types.js';

// Phrases that tell an agent when to pick the skill. Each alternative starts with a literal word, and no two
// repetitions over the same characters touch, so matching stays linear on long descriptions. `WHEN:` is a label
// followed by the requests (microsoft/azure-skills: "… WHEN: compliance scan, security audit, …").
const WHEN =
  /\b(?:use[sd]?|using|invoke[sd]?|call|apply|activate|load|choose|pick)\s+(?:(?:this|it|me)\s+(?:skill\s+)?)?(?:[a-z]{1,20}ly\s+)?(?:when|whenever|if|for|to|on|in|with|before|after|during)\b|\b(?:useful|helpful|ideal|best|good|designed|intended|meant)\s+(?:for|when|if)\b|\bwhen(?:ever)?\s+(?:the\s+|a\s+|an\s+|you\s+)?(?:users?|you|agents?|asked|someone|working|dealing|handling|needed|needing|task|request|prompt|conversation|question|mail|message)\b|\bwhen(?:ever)?\s+[a-z]+ing\b|\bwhen\s+to\s+use\b|\bwhen\s?:|\btrigger|\bfor\s+example\b|\be\.g\.|\bif\s+the\s+user\b/i;

// The same in Chinese (simplified and traditional), Japanese and Korean. Each alternative starts with a literal
// character; the only repetitions are bounded runs that stop at the end of a sentence, so matching stays linear.
//   Chinese: 当/當…时 ("when …"; not 当前 "current", 适当 "suitable" and the like), …时使用 ("use when …"),
//     适用于 ("suited to"), 应用于 ("apply to"), 用于…时 ("used when …"), 使用场景 ("when to use"), 触发 ("trigger"),
//     例如/比如 ("for example"), 如果用户 ("if the user").
//   Japanese: …とき/時/際/場合に ("when …"), …時に使用 / …するときに使う ("use when …"), 例えば ("for example").
//   Korean: …할 때 / …때 사용 ("when …", "use when …"), …경우에 ("in case …"), 예를 들어 ("for example").
const CJK_WHEN =
  /(?<![相适適恰应應])[当當](?![前然地])[^。！？!?\n]{1,120}[时時]|[时時](?:应|應|可|请|請)?(?:使用|调用|調用|触发|觸發|启用|啟用|加载|載入)|[适適]用[于於]|[应應]用[于於]|用[于於][^。！？!?\n]{1,80}[时時]|使用(?:场景|場景|时机|時機)|触发|觸發|例如|比如|(?:如果|若)(?:用户|用戶|使用者)|(?:とき|時|際|場合)(?:に|は|、)|(?:とき|時|際|場合)(?:使用|使う|利用)|トリガー|例えば|[\uAC00-\uD7A3] ?때|경우에|예를 들어|트리거/;

const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Whether the description can be judged: most of its letters are Latin (English phrases) or Chinese, Japanese or
 * Korean (the phrases above). Text mostly in another script (Cyrillic, Arabic, Devanagari, Thai, …) may well say
 * when to use the skill in words this rule does not know, so it is not reported.
 */
function judgeable(text: string): boolean {
  let letters = 0;
  let known = 0;
  for (const c of text) {
    if (!LETTER.test(c)) continue;
    letters++;
    if (LATIN.test(c) || CJK.test(c)) known++;
  }
  return known * 2 >= letters;
}

export default {
  names: ['SK102', 'description-when-to-use'],
  description:
    'the description says when to use the skill, so an agent knows when to load it (English, Chinese, Japanese and Korean phrasing; a description mostly in another script is not judged)',
  tags: ['description', 'best-practice'],
  layouts: ['skill-md', 'manifest'],
  severity: 'warning',
  sources: [
    'agentskills.io specification: description says what the skill does and when to use it',
    'Anthropic, Skill authoring best practices',
  ],
  fixable: false,
  check(skill, ctx) {
    const text = skill.description;
    // An empty description is validate's (SK011).
    if (text === '' || WHEN.test(text) || CJK_WHEN.test(text) || !judgeable(text)) return;
    const pos = skill.positions['description'];
    ctx.report({
      message: 'description does not say when to use the skill; expected a phrase such as "Use when …"',
      file: skill.file,
      line: pos?.line,
      column: pos?.column,
      hint: 'add a sentence naming the requests it serves, e.g. "Use when the user asks to extract text from a PDF."',
    });
  },
} satisfies Rule;
