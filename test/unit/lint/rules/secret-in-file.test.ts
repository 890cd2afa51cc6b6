import { expect, it } from 'vitest';
import rule, {
  assignments,
  entropy,
  findSecrets,
  hintStarts,
  PATTERNS,
  patternMatches,
  valueAfter,
} from '../../../../src/lint/rules/secret-in-file.js';
import { counts, madeUpValue } from '../../../../src/lint/helpers/made-up-secret.js';
import { runRule, testRule } from '../../../helpers/rule-tester.js';
import { skillMd } from '../../../helpers/tree.js';

const fm = 'name: demo\ndescription: Demo skill. Use when testing.\n';
const manifest = JSON.stringify(
  { id: 'demo', name: 'Demo', version: '1.0.0', description: 'Demo. Use when testing.', owner: 'built-in' },
  null,
  2,
);

// Secrets are made up at run time, so that no scanner mistakes this file for a leak.
let seed = 7;
function random(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    s += alphabet[seed % alphabet.length];
  }
  return s;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const aws = 'AK' + 'IA' + random(16, UPPER);
const github = 'gh' + 'p_' + random(36);
const githubPat = 'github' + '_pat_' + random(22) + '_' + random(59);
const openai = 's' + 'k-proj-' + random(48);
const anthropic = 's' + 'k-ant-api03-' + random(90);
const slack = 'xo' + 'xb-' + random(12, '0123456789') + '-' + random(24);
const google = 'AI' + 'za' + random(35);
const stripe = 's' + 'k_live_' + random(24);
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '42', name: 'Ann', iat: 1 })}.${random(43)}`;
const pem = `-----BEGIN RSA PRIVATE KEY-----\n${random(64)}\n${random(64)}\n-----END RSA PRIVATE KEY-----\n`;
const generic = random(40);

it('secret-in-file', () =>
  testRule(rule, {
    valid: [
      { tree: { 'SKILL.md': skillMd(fm, '# Demo\n\nSet `API_KEY` in your environment.\n') } },
      // Placeholders and samples.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            `Example:\n\n    export GITHUB_TOKEN=gh${'p_'}${'x'.repeat(36)}\n    export OPENAI_API_KEY=your-api-key-goes-here-please\n`,
          ),
          '.env.example': 'API_KEY=\nTOKEN=changeme\nSECRET=<your secret>\n',
          'config.json':
            '{\n  "token": "${TOKEN}",\n  "apiKey": "YOUR_API_KEY_HERE_1234567890",\n  "password": "dummy-password-1234567890abc"\n}\n',
          'scripts/a.js':
            '#!/usr/bin/env node\nconst apiKey = process.env.OPENAI_API_KEY_2024;\nconst token = config.auth.token1234567890;\n',
          'references/aws.md': `The sample key AK${'IA'}IOSFODNN7EXAMPLE is not real.\n`,
          'references/keys.md': '```\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n```\n',
          'references/jwt.md': `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n`,
        },
      },
      // Long but not random, or too short.
      {
        tree: {
          'manifest.json': manifest,
          'settings.yaml': `password: ${'a'.repeat(30)}1\ntoken: abc123\nmax_tokens: 100000000000000000000000\nsecret_name: my_long_secret_name_for_the_vault\n`,
        },
      },
      {
        tree: {
          'manifest.json': manifest,
          'notes.md': 'We use scikit-learn: sk-learn-compatible-estimators-for-everything.\n',
        },
      },
      // Binary files are not read.
      { tree: { 'SKILL.md': skillMd(fm), 'assets/blob.bin': `\u0000\u0001${github}` } },
      // A generic value below the entropy asked for.
      { tree: { 'SKILL.md': skillMd(fm), 'a.env': `API_KEY=${generic}\n` }, options: { minEntropy: 6 } },
    ],
    invalid: [
      {
        // A private key assigned, and no other secret word in the file: still searched, still found.
        tree: { 'manifest.json': manifest, 'scripts/sign.py': `PRIVATE_KEY = "${generic}"\n` },
        messages: [/^scripts\/sign\.py holds what looks like a secret/],
        lines: [1],
      },
      {
        tree: { 'SKILL.md': skillMd(fm, `# Demo\n\nUse token ${github} to call the API.\n`) },
        messages: [/^SKILL\.md holds what looks like a secret: GitHub token ghp_…$/],
        lines: [7],
      },
      {
        tree: {
          'manifest.json': manifest,
          'scripts/config.py': `AWS_KEY = "${aws}"\nPAT = "${githubPat}"\n`,
          'assets/id_rsa': pem,
        },
        messages: [
          /^assets\/id_rsa .* private key/,
          /^scripts\/config\.py .* AWS access key id AKIA…$/,
          /GitHub token gith…$/,
        ],
        lines: [1, 1, 2],
      },
      {
        tree: {
          'manifest.json': manifest,
          'scripts/keys.ts': [
            `const a = '${openai}';`,
            `const b = "${anthropic}";`,
            `const s = '${slack}';`,
            `const g = '${google}';`,
            `const p = '${stripe}';`,
            `fetch(u, { headers: { Authorization: 'Bearer ${jwt}' } });`,
          ].join('\n'),
        },
        messages: [
          /OpenAI API key sk-p…/,
          /Anthropic API key sk-a…/,
          /Slack token xoxb…/,
          /Google API key AIza…/,
          /Stripe live key sk_l…/,
          /JSON Web Token eyJh…/,
        ],
        lines: [1, 2, 3, 4, 5, 6],
      },
      {
        tree: {
          'SKILL.md': skillMd(fm),
          '.env': `# real values\nOPENAI_KEY=1\nAPI_KEY=${generic}\n`,
          'config.json': `{\n  "auth": {\n    "token": "${generic}"\n  }\n}\n`,
        },
        messages: [/^\.env .*api_key value/, /^config\.json .*token value/],
        lines: [3, 3],
      },
      // A GitHub token assigned to a key is reported once, as what it is.
      { tree: { 'SKILL.md': skillMd(fm), 'run.sh': `GITHUB_TOKEN=${github}\n` }, messages: [/GitHub token/] },
      // Real-looking keys in Markdown, outside any illustration, and in code whatever the Markdown around says.
      {
        tree: {
          'SKILL.md': skillMd(
            fm,
            `# Setup\n\nThe team key is ${google}.\n\n\`\`\`bash\nexport KEY=${openai}\n\`\`\`\n`,
          ),
          'references/example-config.py': `# An example config\nAPI_KEY = "${generic}"\n`,
        },
        messages: [/Google API key AIza…/, /OpenAI API key sk-p…/, /example-config\.py .*api_key value/],
      },
    ],
  }));

it('secret-in-file takes documented placeholders for what they are (trailofbits firebase-apk-scanner)', () =>
  testRule(rule, {
    valid: [
      {
        tree: {
          'SKILL.md': skillMd(fm, 'Read references/keys.md.\n'),
          'references/keys.md': [
            // A value that counts (A1B2C3…), masked, templated: nobody's random generator makes these.
            '```',
            'AIza[A-Za-z0-9_-]{35}',
            'Example: AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q',
            '```',
            `Keys look like AI${'za'}Sy${'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q'} in the app.`,
            `A token: gh${'p_'}abcd${random(32)}.`,
            `Masked: ${google.slice(0, 10)}...${google.slice(-10)} and <${google}>.`,
            // Presented as an example, or as the reader's own key, on its line.
            `Example: ${google}`,
            `e.g. OPENAI_API_KEY=${openai}`,
            `Set your key: ${anthropic}`,
            '',
            // Under an Example heading, or in a block that a line saying "for example" leads in.
            '## Example',
            '',
            `    curl -H "Authorization: Bearer ${github}" https://api.github.com/user`,
            '',
            '## Setup',
            '',
            'For example, a configuration file:',
            '',
            '```json',
            `{ "api_key": "${generic}" }`,
            '```',
          ].join('\n'),
        },
      },
    ],
    invalid: [
      // The same keys outside an illustration, in a code file: real.
      {
        tree: {
          'SKILL.md': skillMd(fm),
          'scripts/run.py': `# for example, run it\nKEY = "${google}"\n`,
          'references/keys.md': `## Setup\n\nFor example, run this.\n\nThen paste ${github} here.\n`,
        },
        messages: [/references\/keys\.md .*GitHub token/, /scripts\/run\.py .*Google API key/],
      },
    ],
  }));

it("findSecrets passes over a Firebase Storage link's download token, and only that", () => {
  const token = 'a3f19c2e-7b4d-4e8a-9c61-2d5f0b8e7a43';
  const link = 'https://4711-files.gitbook.io/~/files/v0/b/gitbook-x-prod.appspot.com/o/spaces%2FAb%2Fimage.png';
  const firebase = 'https://firebasestorage.googleapis.com/v0/b/demo.appspot.com/o/docs%2Freport.pdf';
  for (const shared of [
    `![chart](${link}?alt=media&token=${token})`,
    `<img src="${link}?alt=media&#x26;token=${token}" alt="">`,
    `<a href='${firebase}?alt=media&amp;token=${token}'>report</a>`,
    `See ${firebase}?token=${token}&alt=media for the file.`,
    // GitBook names a second upload `output (10).png`: brackets inside the link, in Markdown's brackets too.
    `<img src="${link.replace('image.png', 'output%20(10).png')}?alt=media&#x26;token=${token}" alt="">`,
    `![chart](${link.replace('image.png', 'chart(1).png')}?alt=media&token=${token})`,
    `click ![](${link}?alt=media\\&token=${token}) and`,
  ])
    expect(findSecrets(shared), shared).toEqual([]);
  for (const secret of [
    // Not a storage link, not its query, or not the file itself: a token like any other.
    `TOKEN=${token}`,
    `https://api.acme-corp.io/v1/items?token=${token}`,
    `${link}?token=${token}`,
    `${link}?alt=json&token=${token}`,
    `${link}#alt=media&token=${token}`,
    `${link}?alt=media&token_id=${token}`,
    `${link}?alt=media token=${token}`,
    `(${link}?alt=media) (see?token=${token})`,
    `${link.replace('image.png', 'a(1).png')}#x?alt=media&token=${token}`,
  ])
    expect(
      findSecrets(secret).map((h) => h.kind),
      secret,
    ).toEqual([expect.stringMatching(/^token/)]);
});

it("findSecrets passes over a call and a file's path given to a secret's key, and only those", () => {
  const key = random(28);
  for (const code of [
    'confused_token = forge_hs256_with_public_key(valid_token, public_key_pem)',
    'private_key_file = /etc/freeradius/3.0/certs/server2.key',
    '"credentials_path": "~/.config/acme2024/service_v3.json"',
    'api_key = /run/secrets/acme_api_key_2024',
  ])
    expect(findSecrets(code), code).toEqual([]);
  for (const secret of [
    `token = "${key}"`,
    `token = ${key}`,
    `api_key = /${key.slice(0, 12)}/${key.slice(12)}`,
    `password = "${key}" (rotate it)`,
  ])
    expect(
      findSecrets(secret).map((h) => h.kind),
      secret,
    ).toHaveLength(1);
});

it('counts and madeUpValue tell made-up values from random ones', () => {
  // sk-live-abc123def456ghi789: a guide's token (yigitkonur/skills-by-yigitkonur), three runs of three.
  for (const v of [
    'AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q',
    'abcd',
    'x1234y',
    'A1B2C3',
    'zz7890zz',
    'sk-live-abc123def456ghi789',
  ])
    expect(counts(v), v).toBe(true);
  for (const v of ['AIzaSyD8f3Kq0Lm2Vx9Rt7Wb4Nc6Hj1Pg5Ze3Ya', 'abc', 'A1B2C', 'dcba', 'abc123-q'])
    expect(counts(v), v).toBe(false);
  for (const v of ['AIzaXXXXXXXXXXXX', 'sk-...', '<your-key>', '{{ KEY }}', '${KEY}', 'ghp_******', 'aaaaaaaaaaaa'])
    expect(madeUpValue(v), v).toBe(true);
  expect(madeUpValue(google)).toBe(false);
});

it('secret-in-file never shows the secret, only its first four characters, with its column', async () => {
  const r = await runRule(rule, { tree: { 'SKILL.md': skillMd(fm), 'x.sh': `echo ok\n  KEY=${aws}\n` } });
  try {
    expect(r.reports).toHaveLength(1);
    const rep = r.reports[0]!;
    expect([rep.line, rep.column]).toEqual([2, 7]);
    expect(JSON.stringify(rep)).not.toContain(aws.slice(4));
    expect(rep.message).toContain(`${aws.slice(0, 4)}…`);
  } finally {
    r.cleanup();
  }
});

it("findSecrets finds a pattern's secret and a generic value in one text, whichever comes first, in any case", () => {
  const kinds = (text: string) => findSecrets(text).map((h) => h.kind);
  const assignment = `API_KEY=${generic}`;
  // Words in another case first: the pass that looks for both must not stop at them.
  const noise = 'Tokens, SECRETS and Akia Sk-words are only words.\n';
  expect(kinds(`${noise}${github}\n${noise}${assignment}\n`)).toEqual(['GitHub token', 'api_key value']);
  expect(kinds(`${noise}${assignment}\n${noise}${github}\n`)).toEqual(['api_key value', 'GitHub token']);
  expect(kinds(`${noise}${github}\n`)).toEqual(['GitHub token']);
  expect(kinds(`${noise}${assignment.toLowerCase()}\n`)).toEqual(['api_key value']);
  expect(kinds(noise)).toEqual([]);
});

it('findSecrets finds every kind of secret in long prose, wherever it sits, and in long dense data', () => {
  const kinds = (text: string) => findSecrets(text).map((h) => h.kind);
  const prose = (n: number) => 'the skill reads a file and writes the result into a table, then checks it.\n'.repeat(n);
  const patterns: [string, string][] = [
    [aws, 'AWS access key id'],
    [github, 'GitHub token'],
    [githubPat, 'GitHub token'],
    [openai, 'OpenAI API key'],
    [anthropic, 'Anthropic API key'],
    [slack, 'Slack token'],
    [google, 'Google API key'],
    [stripe, 'Stripe live key'],
    [jwt, 'JSON Web Token'],
    [pem, 'private key'],
  ];
  // Each pattern alone in pages of prose, as the only hint of the text.
  for (const [secret, kind] of patterns) expect(kinds(`${prose(60)}use ${secret} here\n${prose(60)}`)).toEqual([kind]);
  // A key's header right after letters that start other hints (sk-, xoxb-) is still a key.
  for (const lead of ['k', 'sk', 'xb', 'zxb'])
    expect(kinds(`${prose(60)}${lead}${pem}${prose(60)}`)).toEqual(['private key']);
  // Assignments on lines of their own: first and last line (no newline after it), near each other (one stretch
  // read), far apart (two), and with the keyword far from the operator.
  const a = (k: string) => `${k}=${generic}`;
  expect(kinds(`${a('API_KEY')}\n${prose(100)}${a('token')}`)).toEqual(['api_key value', 'token value']);
  expect(kinds(`${prose(100)}${a('secret')}\nok: yes\n${a('PASSWORD')}\n${prose(100)}`)).toEqual([
    'secret value',
    'password value',
  ]);
  expect(kinds(`${prose(50)}${a('secret')}\n${prose(30)}a: b\n${prose(30)}${a('pwd')}\n${prose(50)}`)).toEqual([
    'secret value',
    'pwd value',
  ]);
  expect(kinds(`${prose(50)}my_private_key_for_the_service_in_production: "${generic}"\n`)).toEqual([
    'private_key value',
  ]);
  // Keywords that overlap: an assignment starts where the second begins, when the first is too far from the operator
  // (at most 40 name characters after it), and at the first when it is not.
  const tail = 'x'.repeat(36);
  expect(kinds(`${prose(50)}secretoken${tail}y=${generic}\n`)).toEqual(['token value']);
  expect(kinds(`${prose(50)}secretoken${tail}=${generic}\n`)).toEqual(['secret value']);
  // Operators with no keyword on their lines, and keywords with no operator on theirs: nothing.
  expect(kinds(`${prose(50)}token\nsecret\n${generic}\nx = ${generic}\n${prose(50)}`)).toEqual([]);
  // Dense data: an operator on every line, the assignment deep inside.
  const data = Array.from({ length: 300 }, (_, i) => `  "field${i}": "value ${i}",`).join('\n');
  expect(kinds(`{\n${data}\n  "apiKey": "${generic}"\n}\n`)).toEqual(['apikey value']);
  expect(kinds(`{\n${data}\n}\n`)).toEqual([]);
});

it('findSecrets finds every hint of every pattern alone in prose (the one expression that tells a text holds some)', () => {
  const kinds = (text: string) => findSecrets(text).map((h) => h.kind);
  const prose = 'the skill reads a file - and writes_the result, then A JSON check.\n'.repeat(40);
  const variants: [string, string][] = [
    ['AS' + 'IA' + random(16, UPPER), 'AWS access key id'],
    ...['o', 'u', 's', 'r'].map((c): [string, string] => ['gh' + c + '_' + random(36), 'GitHub token']),
    ...['a', 'p', 'r', 's'].map((c): [string, string] => [
      'xo' + 'x' + c + '-' + random(12, '0123456789') + '-' + random(24),
      'Slack token',
    ]),
    ['r' + 'k_live_' + random(24), 'Stripe live key'],
  ];
  for (const [secret, kind] of variants) expect(kinds(`${prose}use ${secret} here\n${prose}`)).toEqual([kind]);
  expect(kinds(prose)).toEqual([]);
});

// Every pattern's hints.
const HINTS = ['-----BEGIN ', 'AKIA', 'ASIA', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'sk-ant-', 'sk-'];
HINTS.push('xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-', 'AIza', 'sk_live_', 'rk_live_', 'eyJ');

// Characters that texts on disk hold and decoding makes (CRLF, a lone CR, a BOM, U+FFFD for invalid UTF-8, lone
// surrogates, NUL, an emoji, and letters that /i could take for ASCII ones: İ, the Kelvin sign, ſ).
const NASTY = ['\r\n', '\r', '\ufeff', '\ufffd', '\ud800', '\udc00', '\0', '😀', 'İ', '\u212a', 'ſ', 'é', '\t'];

/** A generator of texts made of `parts`, most short, every hundredth long (a long line when no part is a newline). */
function texts(seed: number, parts: string[], count: number): string[] {
  let s = seed;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff), s / 0x7fffffff);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let text = '';
    const len = Math.floor(rand() * (n % 100 === 0 ? 3000 : 40));
    for (let i = 0; i < len; i++) text += parts[Math.floor(rand() * parts.length)];
    out.push(text);
  }
  return out;
}

/** Every place where `needle` stands in `text`, overlapping ones too. */
function placesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= text.length; i++) if (text.startsWith(needle, i)) out.push(i);
  return out;
}

it('hintStarts finds every place where a hint of each pattern starts, and nothing else', () => {
  // Hints, their pieces and their near misses (one dash short, github cut, a k missing).
  const parts = ['s', 'k', '-', 'sk', 'x', 'o', 'xo', 'xox', 'b', 'a', 'p', 'r', '_', 'g', 'h', 'gh', 'github', '_pat'];
  parts.push('_live', 'e', 'y', 'J', 'ey', 'A', 'AK', 'IA', 'AS', 'SI', 'AI', 'za', '-----', 'BEGIN', ' ', '\n');
  parts.push('----', 'BEGIN ', 'pat_', 'live_', 'githu', 'ithub', 'rk', '_pat_', 'k_live_', 'ant-', ...NASTY);
  const wrong: string[] = [];
  for (const text of texts(5, parts, 20_000)) {
    const expected = PATTERNS.map((p) => [...new Set(p.hints.flatMap((h) => placesOf(text, h)))].sort((a, b) => a - b));
    const found = hintStarts(text) ?? PATTERNS.map(() => []);
    if (JSON.stringify(found) !== JSON.stringify(expected)) wrong.push(JSON.stringify(text));
  }
  expect(wrong).toEqual([]);
  for (const h of HINTS) for (const t of [h, `${h}x`, `x${h}`, ` ${h} `]) expect(hintStarts(t), t).toBeDefined();
  expect(hintStarts('the skill reads the tasks of a file, ghost and eyes: Asia')).toBeUndefined();
});

it('each pattern, tried where its hints start, finds what matchAll finds', () => {
  const tokenish = ['aB3dE5gH7jK9mN1pQ3sT5vX7yZ', '0123456789', 'k8J2m4N6p8Q0r2S4t6U8v0W2x4Y6z8A0', 'ABCDEFGHIJ0123'];
  const parts = [...HINTS, ...HINTS, ...tokenish, 'ant-', 'proj-', '.', '-', '_', ' ', '\n', 'PRIVATE KEY-----'];
  parts.push('RSA ', 'EC ', ' BLOCK', 'eyJhbGciOiJIUzI1NiJ9', 'x', 'é', ...NASTY);
  let matched = 0;
  for (const text of texts(23, parts, 20_000)) {
    const starts = hintStarts(text);
    PATTERNS.forEach((p, j) => {
      const expected = [...text.matchAll(p.re)].map((m) => [m.index, m[0]]);
      const found = starts ? [...patternMatches(text, j, starts[j]!)].map((m) => [m.index, m[0]]) : [];
      matched += expected.length;
      expect(found, `${p.kind} in ${JSON.stringify(text)}`).toEqual(expected);
    });
  }
  // The inputs reach every pattern, many times.
  expect(matched).toBeGreaterThan(5_000);
});

// The assignment pattern as findSecrets held it before, tried from every place in turn (the reference).
const ASSIGNMENT_EVERYWHERE =
  /(api[_.-]?key|secret|token|passw(?:or)?d|pwd|access[_.-]?key|credentials?|private[_.-]?key)[A-Za-z0-9_.-]{0,40}["']?[ \t]{0,5}(?:=|:=?|=>)[ \t]{0,5}["'`]?([A-Za-z0-9_\-+/=.~]{20,200})/gi;

it('assignments finds what a match from every place finds, looking only before operators a value follows', () => {
  // Keywords (overlapping ones too), operators, blanks, quotes, name and value characters, newlines, and others.
  const parts = [
    ...['api_key', 'API-KEY', 'apikey', 'secret', 'Token', 'passw', 'password', 'PWD', 'access.key', 'credential'],
    ...['credentials', 'private_key', 'secretoken', '=', ':', ':=', '=>', ' ', '\t', '"', "'", '`', '\n', 'x', '_'],
    ...['-', '.', '/', '+', '~', 'Q9z', 'aB3dE5gH7jK9mN1pQ3sT5vX7', 'k8J2m4N6p8Q0r2S4t6U8v0W2x4Y6', '(', 'é', '#'],
    'x'.repeat(36),
    ...['APi_kEY', 'SECRET', 'tOkEn', 'PassWord', 'CREDENTIALS', 'Private-Key', ...NASTY],
  ];
  for (const text of texts(11, parts, 20_000)) {
    const found = [...assignments(text)].map((m) => [m.index, m[0]]);
    const expected = [...text.matchAll(ASSIGNMENT_EVERYWHERE)].map((m) => [m.index, m[0]]);
    expect(found, JSON.stringify(text)).toEqual(expected);
  }
});

// valueAfter as it was before it looked at the far characters first (the reference): the runs counted one by one.
const VALUE_CLASS = /[A-Za-z0-9_\-+/=.~]/;
function valueAfterByRuns(text: string, at: number): boolean {
  const end = Math.min(text.length, at + 8 + 20);
  let run = 0;
  for (let i = at + 1; i < end; i++) {
    if (VALUE_CLASS.test(text[i]!)) {
      if (++run >= 20) return true;
    } else {
      if (i >= at + 8) return false;
      run = 0;
    }
  }
  return false;
}

it('valueAfter says what counting the runs after the operator says', () => {
  // Mostly value characters, so that long runs and near misses (19, 20, 21 long; starting 7, 8, 9 after) are common.
  const parts = ['a', 'Z', '7', '-', '=', '~', '.', '/', '+', '_', 'aB3dE5gH7j', ' ', '"', ':', '\n', 'é', ...NASTY];
  let yes = 0;
  for (const text of texts(31, parts, 50_000)) {
    for (let at = text.indexOf('='); at >= 0; at = text.indexOf('=', at + 1)) {
      const expected = valueAfterByRuns(text, at);
      if (expected) yes++;
      if (valueAfter(text, at) !== expected) expect.fail(`${at} in ${JSON.stringify(text)}`);
    }
  }
  expect(yes).toBeGreaterThan(500);
  for (let n = 18; n <= 22; n++)
    for (let gap = 0; gap <= 9; gap++) {
      const text = `k=${' '.repeat(gap)}${'a'.repeat(n)} `;
      expect(valueAfter(text, 1), `${gap} ${n}`).toBe(valueAfterByRuns(text, 1));
    }
});

it('findSecrets stays fast on hostile text', () => {
  const inputs = [
    `token=${'a1'.repeat(200_000)}`,
    'eyJ'.repeat(100_000) + '.',
    `${'token'.repeat(50_000)}=`,
    `sk-${'-'.repeat(300_000)}`,
    `-----BEGIN ${'A '.repeat(100_000)}`,
    `${'api_key'.repeat(20_000)}${' '.repeat(10)}:`,
    `## Example\n${'```\n'.repeat(50_000)}${google}\n`,
    `${'- example\n  '.repeat(50_000)}${google}`,
    // One long line of operators each followed by a value, and no keyword: every look before one is bounded.
    `a${'=x1y2z3w4v5u6t7s8r9q0p'.repeat(40_000)}`,
    `${'token '.repeat(10)}${':a1b2c3d4e5f6g7h8i9j0k '.repeat(40_000)}`,
  ];
  for (const s of inputs) {
    // A regex that backtracks on this input would hang here until the test times out.
    expect(Array.isArray(findSecrets(s))).toBe(true);
  }
});

it('entropy is higher for random text than for repeated text', () => {
  expect(entropy('aaaaaaaa')).toBe(0);
  expect(entropy('abcd')).toBe(2);
  expect(entropy(generic)).toBeGreaterThan(4);
});

it('findSecrets leaves out values a person typed or masked, and digests; a random value in their place is found', () => {
  // From real public skills: test fixtures (Qwayk/safe-agent-skills), API documentation with masked values and a
  // digest (liasica/harmonyos-skills, Qwayk's mock outputs).
  const key = random(40);
  const madeUp = [
    '        token = "AWIN_TOKEN_SHOULD_NOT_LEAK_123"',
    '        token = "super_secret_token_123"',
    '    "token": "sp.token.1619838979341"',
    'PayDevAuth: {"clientId":"10132120***","accessToken":"DQEBALZh0tlSKKiNDJ9lYYg0Du0EB3E6PvcGlFsyB*******************XR+k2EX8ry1IGdDUZG1PjfcWQ94xnK7w3ag=="}',
    '"credentialIdNo": "a27aad63294be3fbb164e3d3d4634956cc6dc7427860*******************87798851b9fcd0f828ba78cfd99bf3d64bfa838"',
    '"Authorization": "AWS4-HMAC-SHA256 Credential=BJIIJMUMOQKXDCODXVCG/202211********************mz-date"',
    `"token_output_sha256": "${random(64, '0123456789abcdef')}"`,
    `secret_hash = ${key}`,
    // davila7/claude-code-templates: a log message naming a variable.
    "    'credential-store: WORKORAI_DISABLE_OS_KEYSTORE=1 — OS secret store ' +",
  ];
  for (const text of madeUp) expect(findSecrets(text), text).toEqual([]);
  for (const text of [
    `token = "${key}"`,
    `"accessToken":"${key}"`,
    `"token_output": "${key}"`,
    `token = "${key.slice(0, 10)}_${key.slice(10, 20)}_${key.slice(20)}"`,
  ])
    expect(
      findSecrets(text).map((h) => h.kind),
      text,
    ).toHaveLength(1);
  for (const v of ['AWIN_TOKEN_SHOULD_NOT_LEAK_123', 'super_secret_token_123', 'My-Demo-Token-2024'])
    expect(madeUpValue(v), v).toBe(true);
  for (const v of [key, '3f78f2ae-b6a6-eacf-194c-1bd632b1a8d8', 'qzx_KTRghw_739', 'token_Xk3f9Q', `API_KEY=${key}`])
    expect(madeUpValue(v), v).toBe(false);
});

it('findSecrets leaves out a value masked by Markdown-escaped stars (API pages made Markdown), not one unmasked', () => {
  // modelstudioai/skills: 31 SK119 errors on signed links whose key id is masked as `\*\*\*\*`.
  const id = `LTAI${random(16)}`;
  for (const text of [
    `{"audio":"http://b.oss-cn-beijing.aliyuncs.com/a.mp3?OSSAccessKeyId=${id}\\*\\*\\*\\*&Expires=1748853849"}`,
    `access_key = \\*\\*\\*${id}`,
  ])
    expect(findSecrets(text, { markdown: true }), text).toEqual([]);
  for (const text of [
    `{"audio":"http://b.oss-cn-beijing.aliyuncs.com/a.mp3?OSSAccessKeyId=${id}&Expires=1748853849"}`,
    `{"audio":"a.mp3?OSSAccessKeyId=${id}\\*&Expires=1748853849"}`,
  ])
    expect(
      findSecrets(text, { markdown: true }).map((h) => h.kind),
      text,
    ).toEqual(['accesskey value']);
});

it('findSecrets leaves out a name in code and a page token (real public skills), not a key beside them', () => {
  const key = random(40);
  for (const text of [
    '            return AuthSelection(mode="oauth2", token_present=oauth2_token_present_value)',
    '  "nextPageToken": "WyIyMDI1LTA1LTI4VDA4OjI1OjQzLjkxNDg1NyswMDowMCIsICJjYTc3Mzk3YS1jNTRjLTQ3NGQtOGEzOS0xMzZmMGZlMWI3ODUiXQ=="',
    `page_token = ${key}`,
  ])
    expect(findSecrets(text), text).toEqual([]);
  for (const text of [`"accessToken": "${key}"`, `refresh_token = ${key}`])
    expect(
      findSecrets(text).map((h) => h.kind),
      text,
    ).toHaveLength(1);
});

it('findSecrets leaves out a tokenizer, which names a model (NVIDIA/skills in zuoguyoupan2023/awesome-ai-skills), not a token', () => {
  const key = random(40);
  for (const text of [
    '- `tokenizer = "nvidia/NVIDIA-Nemotron-Nano-9B-v2"`',
    'TOKENIZER_NAME: meta-llama/Llama-3.1-8B-Instruct',
    'tokenisation_model = "google-bert/bert-base-uncased"',
  ])
    expect(findSecrets(text), text).toEqual([]);
  for (const text of [`token = "${key}"`, `tokens_api_key = ${key}`, `tokenizer_api_key = ${key}`])
    expect(
      findSecrets(text).map((h) => h.kind),
      text,
    ).toHaveLength(1);
});

it("findSecrets leaves out reCAPTCHA's published test keys (AwesomeSalesforceSkills), not a key of that shape", () => {
  const test = ['6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe', '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI'];
  for (const k of test) expect(findSecrets(`private static final String SECRET_KEY = '${k}';`)).toEqual([]);
  const other = `6LeIxAcTAAAAA${random(27)}`;
  expect(findSecrets(`SECRET_KEY = '${other}'`)).toHaveLength(1);
});

it("findSecrets leaves out AWS's documentation keys and their variants, and a key header with no body after it", () => {
  // tangledgroup/tangled-skills (boto3 guide) and kouko/monkey-skills (a privacy scanner's test).
  for (const text of [
    'aws_access_key_id = AKIAIOSFODNN7PRODUCTION\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYPRODUCTIONKEY\n',
    'KEY=AKIAIOSFODNN7EXAMPL2\n',
    `PEM_HEADER = "${'-----BEGIN'} RSA PRIVATE KEY-----"\nSLACK = "xoxb-EXAMPLE"\nURL = "https://hooks.slack.com/services/EXAMPLE/PLACEHOLDER/notarealwebhookEXAMPLE00"\n`,
  ])
    expect(findSecrets(text), text).toEqual([]);
  const body = random(64);
  const header = `${'-----BEGIN'} PRIVATE KEY-----`;
  // A key's body right after its header, in a file, a JSON string, a string over lines, a numbered listing.
  for (const text of [
    `${header}\n${body}\n-----END PRIVATE KEY-----\n`,
    `{"key": "${header}\\n${body}\\n"}`,
    `let k = '${header}\\n' +\n'${body}\\n' +\n`,
    `19. '${header}\\n' +\n20. '${body}\\n' +\n`,
    `7. '${header}\\n' +\n8. 'Proc-Type: 4,ENCRYPTED\\n' +\n9. 'DEK-Info: DES-EDE3-CBC,99A1D9B1C4C14F2F\\n' +\n10. '\\n' +\n11. '${body}\\n' +\n`,
  ])
    expect(
      findSecrets(text).map((h) => h.kind),
      text,
    ).toEqual(['private key']);
  expect(findSecrets(`aws_secret_access_key = ${random(40)}`)).toHaveLength(1);
});

it('findSecrets still finds a password made of words and numbers (how people make real ones)', () => {
  for (const text of ['password = "Summer_Holiday_2024_Berlin"', 'DB_PWD=Correct-Horse-Battery-Staple-42'])
    expect(
      findSecrets(text).map((h) => h.kind),
      text,
    ).toHaveLength(1);
  expect(findSecrets('token = "Summer_Holiday_2024_Berlin"')).toEqual([]);
});

it('findSecrets leaves out a password whose words call it a password or a secret, not one of other words', () => {
  // alirezarezvani/claude-skills' secret scanner's tests: what the scanner must flag, not a credential.
  for (const text of [
    'password = "my_secret_password_123"',
    'db_password = "SuperSecretPassword2024"',
    'ADMIN_PWD=my-super-secret-pass-2024',
  ])
    expect(findSecrets(text), text).toEqual([]);
  // Words that do not name it, or a random tail after the name (Notion's `secret_…` tokens), are still found.
  const tail = 'Xk9fQ2mZ7pLw4RtY8vBn3cHs6dJe1aGu5';
  for (const text of [
    'password = "Summer_Holiday_2024_Berlin"',
    `token = "secret_${tail}"`,
    `pwd = "Password_${tail}"`,
  ])
    expect(findSecrets(text), text).toHaveLength(1);
});

it('findSecrets leaves out a password that calls itself hardcoded (a guide showing what not to do)', () => {
  // simota/agent-skills' Scaffold: `# DON'T: Hardcode secrets` and then this in a Terraform block.
  expect(findSecrets('  password = "hardcoded-password-123"  # NEVER DO THIS')).toEqual([]);
  expect(findSecrets('DB_PASSWORD=Hard_Coded_Pass_2024_x9')).toEqual([]);
});

it('findSecrets leaves out a value masked by stars written as HTML references (&#42;), not one a single star ends', () => {
  // Fixed values, which the checks below find unmasked (a random one may be too plain to be found at all).
  const id = `LTAI${'5tPLWJfJHNkZbfnQ'}`;
  const key = `Zx9Qk2Lm${'8Np4Rt7Vw1Yb3Cd5'}`;
  for (const text of [
    `OSSAccessKeyId=${id}&#42;&#42;&#42;&#42;&Expires=1748853849`,
    `<code>API_KEY=${key}&#x2A;&#x2a;&#42;</code>`,
    `access_key = &ast;&ast;&ast;${id}`,
    `api_key: s${'k-proj-'}${key}&#42;&#42;&#42;&#42;&#42;`,
  ])
    expect(findSecrets(text, { markdown: true }), text).toEqual([]);
  for (const text of [`OSSAccessKeyId=${id}&#42;&Expires=1748853849`, `API_KEY=${key}&amp;&amp;&amp;`])
    expect(findSecrets(text, { markdown: true }).length, text).toBe(1);
});

it("findSecrets leaves out jwt.io's sample token, its claims and a JWT header alone, not a token of other claims", () => {
  const sampleClaims = b64({ sub: '1234567890', name: 'John Doe', admin: true, iat: 1516239022 });
  const classicClaims = b64({ sub: '1234567890', name: 'John Doe', iat: 1516239022 });
  const hs256 = b64({ alg: 'HS256', typ: 'JWT' });
  for (const text of [
    // jwt.io's newer sample, and its RS256 one (other signatures, the same claims).
    `Authorization: Bearer ${hs256}.${sampleClaims}.KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30`,
    `${b64({ alg: 'RS256', typ: 'JWT' })}.${classicClaims}.${random(342)}`,
    `"token": "${classicClaims}"`,
    `access_token = ${hs256}`,
    `id_token: ${hs256}.${sampleClaims}`,
  ])
    expect(findSecrets(text), text).toEqual([]);
  const otherClaims = b64({ sub: 'user-7781', name: 'Ann Lee', iat: 1716239022 });
  for (const text of [
    `Authorization: Bearer ${hs256}.${otherClaims}.${random(43)}`,
    `"token": "${b64({ type: 'service_account', private_key_id: random(40) })}"`,
  ])
    expect(findSecrets(text).length, text).toBe(1);
});
