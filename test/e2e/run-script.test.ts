import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// Real scripts in bash, Python, Node and TypeScript (tsx), run through the built CLI. runCli (execa) drops the final
// newline of stdout and stderr.

const { fresh, cleanup } = tempFolders('skills-run-script-e2e-');
afterAll(cleanup);

const SECRET = 'tok-s3cr3t-value-42';
const EXEC = 0o755;

/** Each language's script answers {argv, stdin, lang}: the JSON it got as its first argument and on stdin. */
const POLYGLOT = {
  'SKILL.md': skillMd('name: polyglot\ndescription: Scripts in four languages. Use when testing run-script.'),
  'scripts/hello-bash.sh': {
    content:
      '#!/bin/bash\n# Echo the arguments back, from bash.\nset -eu\nin=$(cat)\nprintf \'{"success":true,"result":{"argv":%s,"stdin":%s,"lang":"bash"}}\\n\' "$1" "$in"\n',
    mode: EXEC,
  },
  // No shebang: .py means python3.
  'scripts/hello-py.py':
    '"""Echo the arguments back, from Python."""\nimport json, sys\nprint("working")\nprint(json.dumps({"success": True, "result": {"argv": json.loads(sys.argv[1]), "stdin": json.loads(sys.stdin.read()), "lang": "python"}}))\n',
  'scripts/hello-node.mjs': {
    content:
      "#!/usr/bin/env node\n// Echo the arguments back, from Node.\nlet s = '';\nprocess.stdin.on('data', (d) => (s += d)).on('end', () => {\n  console.log(JSON.stringify({ success: true, result: { argv: JSON.parse(process.argv[2]), stdin: JSON.parse(s), lang: 'node' } }));\n});\n",
    mode: EXEC,
  },
  'scripts/hello-ts.ts':
    "// Echo the arguments back, from TypeScript.\ninterface Args { [k: string]: unknown }\nconst argv: Args = JSON.parse(process.argv[2] ?? '{}');\nlet s: string = '';\nprocess.stdin.on('data', (d: Buffer) => (s += d)).on('end', () => {\n  const stdin: Args = JSON.parse(s);\n  console.log(JSON.stringify({ success: true, result: { argv, stdin, lang: 'typescript' } }));\n});\n",
  'scripts/fail.py':
    'import json\nprint(json.dumps({"success": False, "error": "no such page"}))\nraise SystemExit(3)\n',
  'scripts/where.sh':
    '# Report the working directory and SKILL_DIR.\nprintf \'{"success":true,"result":{"cwd":"%s","skillDir":"%s"}}\\n\' "$PWD" "$SKILL_DIR"\n',
  'scripts/slow.sh': 'sleep 30\n',
  // Ignores SIGTERM, and so does its child: only SIGKILL to the whole group ends them.
  'scripts/stubborn.sh':
    'trap \'\' TERM\nsleep 300 &\necho $! > "$SKILL_DIR/child.pid"\necho $$ > "$SKILL_DIR/main.pid"\nwait\n',
  // Exits at once, leaving a child that holds its stdout.
  'scripts/leaves-child.sh': 'sleep 300 &\necho $! > "$SKILL_DIR/left.pid"\necho \'{"success":true,"result":"bye"}\'\n',
  'scripts/flood.py':
    'import sys\nchunk = "x" * 65536\nfor _ in range(160):\n    sys.stdout.write(chunk)\nsys.stderr.write("e" * 1100000)\n',
  'scripts/self-kill.sh': 'kill -USR1 $$\nsleep 5\n',
  'scripts/scrape.py': 'print("{\\"success\\": true, \\"result\\": \\"py\\"}")\n',
  'scripts/scrape.sh': 'echo \'{"success": true, "result": "sh"}\'\n',
  'scripts/notes.txt': 'no shebang, no known extension\n',
};

/** A manifest skill that declares API_TOKEN; scripts/undeclared.sh is not in its "scripts". */
function manifestSkill(root: string): string {
  writeTree(root, {
    'manifest.json': JSON.stringify({
      id: 'secretive',
      name: 'Secretive',
      version: '1.0.0',
      description: 'Uses a token. Use when testing run-script secrets.',
      owner: 'built-in',
      scripts: ['scripts/env.sh', 'scripts/leak.sh', 'scripts/leak-split.js'],
      envVars: ['API_TOKEN'],
    }),
    '.env.example': 'API_TOKEN=\n',
    'scripts/env.sh': {
      content:
        '#!/usr/bin/env bash\n# What the script sees of its environment.\nprintf \'{"success":true,"result":{"declared":"%s","undeclared":"%s","path":%s}}\\n\' "${API_TOKEN-<unset>}" "${UNDECLARED_VAR-<unset>}" "$([ -n "${PATH-}" ] && echo true || echo false)"\n',
      mode: EXEC,
    },
    'scripts/leak.sh': {
      content:
        '#!/bin/bash\necho "out: $API_TOKEN"\necho "err: $API_TOKEN" >&2\nprintf \'{"success":true,"result":"%s"}\\n\' "$API_TOKEN"\n',
      mode: EXEC,
    },
    // The secret leaves in two writes, 100 ms apart: two chunks on our side.
    'scripts/leak-split.js':
      "const t = process.env.API_TOKEN;\nprocess.stdout.write('a ' + t.slice(0, 7));\nprocess.stderr.write('b ' + t.slice(0, 5));\nsetTimeout(() => { process.stdout.write(t.slice(7) + ' z\\n'); process.stderr.write(t.slice(5) + ' y\\n'); }, 100);\n",
    'scripts/undeclared.sh': { content: `#!/bin/bash\ntouch "${join(root, 'ran')}"\n`, mode: EXEC },
  });
  return root;
}

let polyglot: string;
let secretive: string;
let secretsFile: string;

beforeAll(() => {
  polyglot = join(fresh('poly'), 'polyglot');
  writeTree(polyglot, POLYGLOT);
  secretive = manifestSkill(join(fresh('manifest'), 'secretive'));
  secretsFile = join(fresh('secrets'), 'env.json');
  writeFileSync(secretsFile, JSON.stringify({ API_TOKEN: SECRET, OTHER_TOKEN: 'not-for-this-skill' }));
});

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

/** True when no such process runs (a zombie waiting for init to reap it runs no more). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('skills run-script: languages and arguments (built CLI)', () => {
  const args = { url: 'https://example.com', n: 2, tags: ['a', 'b'], nested: { ok: true } };

  it.each([
    ['hello-bash', 'bash'],
    ['hello-py.py', 'python'],
    ['hello-node', 'node'],
    ['hello-ts', 'typescript'],
  ])('runs %s with the JSON as its first argument and on stdin; the result line is parsed', async (script, lang) => {
    const r = await runCli(['run-script', polyglot, script, '--args', JSON.stringify(args), '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const doc = jsonOf(r.stdout);
    expect(Object.keys(doc)).toEqual([
      'skill',
      'script',
      'exitCode',
      'durationMs',
      'success',
      'result',
      'stdout',
      'stderr',
      'truncated',
      'timedOut',
    ]);
    expect(doc).toMatchObject({
      skill: 'polyglot',
      exitCode: 0,
      success: true,
      result: { argv: args, stdin: args, lang },
      timedOut: false,
      truncated: { stdout: false, stderr: false },
    });
    expect(typeof doc.durationMs).toBe('number');
  });

  it('passes the script output through without --json, and exits with its code', async () => {
    const r = await runCli(['run-script', polyglot, 'hello-py', '--args', '{"a":1}']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'working\n{"success": true, "result": {"argv": {"a": 1}, "stdin": {"a": 1}, "lang": "python"}}',
    );
    const f = await runCli(['run-script', polyglot, 'fail', '--json']);
    expect(f.exitCode).toBe(3);
    expect(jsonOf(f.stdout)).toMatchObject({ success: false, error: 'no such page', exitCode: 3 });
    expect(jsonOf(f.stdout)).not.toHaveProperty('result');
  });

  it('reads the arguments from --args-file and from stdin; none at all is {}', async () => {
    const file = join(fresh(), 'args.json');
    writeFileSync(file, JSON.stringify(args, null, 2));
    const fromFile = await runCli(['run-script', polyglot, 'hello-node', '--args-file', file, '--json']);
    expect(jsonOf(fromFile.stdout).result).toEqual({ argv: args, stdin: args, lang: 'node' });
    const fromStdin = await runCli(['run-script', polyglot, 'hello-bash.sh', '--json'], {
      input: JSON.stringify(args),
    });
    expect(jsonOf(fromStdin.stdout).result).toEqual({ argv: args, stdin: args, lang: 'bash' });
    const none = await runCli(['run-script', polyglot, 'scripts/hello-ts.ts', '--json']);
    expect(jsonOf(none.stdout).result).toEqual({ argv: {}, stdin: {}, lang: 'typescript' });
  });

  it('refuses arguments that are not one JSON object, with the position', async () => {
    const bad = await runCli(['run-script', polyglot, 'hello-bash', '--args', '{"a": 1,}']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^error: --args:1:9: the arguments are not valid JSON: /);
    const list = await runCli(['run-script', polyglot, 'hello-bash', '--args', '[1, 2]']);
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain(
      'error: --args: item 1 of the list is the number 1; command-line words are text\nhint: quote it: "1"',
    );
    const scalar = await runCli(['run-script', polyglot, 'hello-bash', '--args', '"text"']);
    expect(scalar.exitCode).toBe(2);
    expect(scalar.stderr).toContain('expected a JSON object');
    const file = join(fresh(), 'broken.json');
    writeFileSync(file, '{\n  "a": 1\n  "b": 2\n}\n');
    const fromFile = await runCli(['run-script', polyglot, 'hello-bash', '--args-file', file]);
    expect(fromFile.exitCode).toBe(2);
    expect(fromFile.stderr).toContain(`${file}:3:3: the arguments are not valid JSON: expected "," between entries`);
  });

  it('bounds the arguments: 100 entries and 4,096 bytes', async () => {
    const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
    expect((await runCli(['run-script', polyglot, 'hello-node', '--args', keys(100)])).exitCode).toBe(0);
    const many = await runCli(['run-script', polyglot, 'hello-node', '--args', keys(101)]);
    expect(many.exitCode).toBe(2);
    expect(many.stderr).toContain('101 arguments, more than the 100 allowed');
    const sized = (n: number) => JSON.stringify({ a: 'x'.repeat(n - '{"a":""}'.length) });
    expect(Buffer.byteLength(sized(4097))).toBe(4097);
    expect((await runCli(['run-script', polyglot, 'hello-node', '--args', sized(4096)])).exitCode).toBe(0);
    const big = await runCli(['run-script', polyglot, 'hello-node', '--args', sized(4097)]);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toContain('4097 bytes as JSON, more than the 4096 allowed');
  });

  it('runs in the skill folder with SKILL_DIR set', async () => {
    const r = await runCli(['run-script', polyglot, 'where', '--json']);
    expect(jsonOf(r.stdout).result).toEqual({ cwd: polyglot, skillDir: polyglot });
  });

  it('names both scripts of an ambiguous name; a script with no way to run it is an error', async () => {
    const r = await runCli(['run-script', polyglot, 'scrape']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"scrape" is ambiguous in the skill polyglot');
    expect(r.stderr).toContain('scripts/scrape.py and scripts/scrape.sh');
    expect(jsonOf((await runCli(['run-script', polyglot, 'scrape.sh', '--json'])).stdout).result).toBe('sh');
    const txt = await runCli(['run-script', polyglot, 'notes']);
    expect(txt.exitCode).toBe(2);
    expect(txt.stderr).toContain('cannot tell how to run scripts/notes.txt');
    const none = await runCli(['run-script', polyglot, 'nope', '--json']);
    expect(none.exitCode).toBe(2);
    expect(jsonOf(none.stdout).error).toMatchObject({
      code: 'E_NOT_FOUND',
      message: expect.stringContaining('has no script "nope"'),
    });
  });

  it('--list shows each script with its interpreter and description', async () => {
    const r = await runCli(['run-script', polyglot, '--list']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`polyglot  skill-md  ${polyglot}`);
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}scripts\/hello-bash\.sh +bash +Echo the arguments back, from bash\.$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}scripts\/hello-py\.py +python3 +Echo the arguments back, from Python\.$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}scripts\/hello-node\.mjs +node +Echo the arguments back, from Node\.$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}scripts\/hello-ts\.ts +tsx +Echo the arguments back, from TypeScript\.$/),
    );
    const doc = jsonOf((await runCli(['run-script', secretive, '--list', '--json'])).stdout);
    expect(doc).toMatchObject({ skill: 'secretive', layout: 'manifest', source: 'path' });
    const scripts = doc.scripts as { path: string; interpreter?: string; description?: string; refused?: string }[];
    expect(scripts.find((s) => s.path === 'scripts/env.sh')).toMatchObject({
      interpreter: 'bash',
      description: 'What the script sees of its environment.',
    });
    expect(scripts.find((s) => s.path === 'scripts/undeclared.sh')?.refused).toContain('not declared');
  });
});

describe('skills run-script: limits (built CLI)', () => {
  it('refuses a --timeout that is no number of seconds, or longer than a timer can hold (it would fire at once)', async () => {
    for (const t of ['abc', '0', '-1', '2147484']) {
      const r = await runCli(['run-script', polyglot, 'hello-bash', '--timeout', t], { input: '{}' });
      expect(r.exitCode, t).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(
        `error: --timeout must be a number of seconds greater than 0 and at most 2147483, not "${t}"`,
      );
    }
  });

  it('ends a script that runs past --timeout: exit 124, timedOut', async () => {
    const r = await runCli(['run-script', polyglot, 'slow', '--timeout', '1', '--json']);
    expect(r.exitCode).toBe(124);
    expect(jsonOf(r.stdout)).toMatchObject({
      timedOut: true,
      success: false,
      exitCode: 124,
      error: 'timed out after 1 s',
    });
    expect(r.stderr).toContain('scripts/slow.sh of polyglot timed out after 1 s');
  });

  it('ends a script and a child that both ignore SIGTERM: no process is left behind', async () => {
    const skill = join(fresh(), 'polyglot');
    writeTree(skill, POLYGLOT);
    const r = await runCli(['run-script', skill, 'stubborn', '--timeout', '2']);
    expect(r.exitCode).toBe(124);
    const child = Number(readFileSync(join(skill, 'child.pid'), 'utf8'));
    const main = Number(readFileSync(join(skill, 'main.pid'), 'utf8'));
    expect(child).toBeGreaterThan(0);
    expect(gone(main)).toBe(true);
    expect(gone(child)).toBe(true);
  });

  it('ends what a script leaves running when it exits', async () => {
    const skill = join(fresh(), 'polyglot');
    writeTree(skill, POLYGLOT);
    const r = await runCli(['run-script', skill, 'leaves-child', '--json']);
    expect(r.exitCode).toBe(0);
    expect(jsonOf(r.stdout)).toMatchObject({ success: true, result: 'bye', timedOut: false });
    expect(gone(Number(readFileSync(join(skill, 'left.pid'), 'utf8')))).toBe(true);
  });

  it('caps each stream at 1 MB, says so, and keeps reading until the script ends', async () => {
    const r = await runCli(['run-script', polyglot, 'flood']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBe(1024 * 1024);
    expect(r.stderr).toContain('stdout was truncated at 1 MB (1048576 bytes kept, 9437184 more dropped)');
    expect(r.stderr).toContain('stderr was truncated at 1 MB');
    const j = await runCli(['run-script', polyglot, 'flood', '--json']);
    const doc = jsonOf(j.stdout);
    expect(doc.truncated).toEqual({ stdout: true, stderr: true });
    expect((doc.stdout as string).length).toBe(1024 * 1024);
    expect((doc.stderr as string).length).toBe(1024 * 1024);
  });

  it('exits 128 + n when signal n ends the script', async () => {
    const r = await runCli(['run-script', polyglot, 'self-kill', '--json']);
    expect(r.exitCode).toBe(128 + 10);
    expect(jsonOf(r.stdout)).toMatchObject({ success: false, error: 'ended by SIGUSR1' });
  });
});

describe('skills run-script: environment and secrets (built CLI)', () => {
  it('gives the script its declared variable from the secrets, and nothing undeclared of the caller', async () => {
    const env = { UNDECLARED_VAR: 'from-caller' };
    const r = await runCli(['run-script', secretive, 'env', '--secrets', secretsFile, '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(jsonOf(r.stdout).result).toEqual({ declared: '***', undeclared: '<unset>', path: true });
    const inherit = await runCli(
      ['run-script', secretive, 'env', '--secrets', secretsFile, '--inherit-env', '--json'],
      { env },
    );
    expect(jsonOf(inherit.stdout).result).toEqual({ declared: '***', undeclared: 'from-caller', path: true });
  });

  it('gives a SKILL.md skill the variables its .env.example names, and nothing else', async () => {
    const dir = join(fresh('skill-md'), 'envy');
    writeTree(dir, {
      'SKILL.md': skillMd('name: envy\ndescription: Reads a token. Use when testing run-script secrets.'),
      '.env.example': '# what the scripts need\nAPI_TOKEN=\n',
      'scripts/env.sh': {
        content:
          '#!/usr/bin/env bash\nprintf \'{"success":true,"result":{"declared":"%s","other":"%s"}}\\n\' "${API_TOKEN-<unset>}" "${OTHER_TOKEN-<unset>}"\n',
        mode: EXEC,
      },
    });
    const r = await runCli(['run-script', dir, 'env', '--secrets', secretsFile, '--json'], {
      env: { OTHER_TOKEN: 'from-caller' },
    });
    expect(r.exitCode).toBe(0);
    expect(jsonOf(r.stdout).result).toEqual({ declared: '***', other: '<unset>' });
  });

  it('reads SKILLS_SECRETS, else secrets/env.json beside the registry; a missing variable is a warning', async () => {
    const project = fresh('project');
    writeTree(project, {
      'secrets/env.json': JSON.stringify({ secretive: { API_TOKEN: 'per-skill-value' }, API_TOKEN: 'shared-value' }),
    });
    const beside = await runCli(['run-script', secretive, 'env', '--json'], {
      env: { SKILLS_REGISTRY: join(project, '.skills') },
    });
    expect(beside.stderr).toBe('');
    expect(jsonOf(beside.stdout).result).toMatchObject({ declared: '***' });
    expect(jsonOf(beside.stdout).stdout).not.toContain('per-skill-value');
    const named = await runCli(['run-script', secretive, 'env', '--json'], {
      env: { SKILLS_SECRETS: secretsFile, SKILLS_REGISTRY: join(project, '.skills') },
    });
    expect(jsonOf(named.stdout).result).toMatchObject({ declared: '***' });
    const none = await runCli(['run-script', secretive, 'env', '--json'], {
      env: { SKILLS_REGISTRY: join(fresh(), '.skills') },
    });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toMatch(
      /^warning: secretive declares API_TOKEN, but there is no secrets file at .*secrets\/env\.json: the script runs without it; give it with --secrets <file> \(NAME=value lines, or JSON\), or pass your environment's with --inherit-env$/,
    );
    expect(jsonOf(none.stdout).result).toMatchObject({ declared: '<unset>' });
  });

  it('masks a secret the script prints, on stdout and stderr, with and without --json', async () => {
    const plain = await runCli(['run-script', secretive, 'leak', '--secrets', secretsFile]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe('out: ***\n{"success":true,"result":"***"}');
    expect(plain.stderr).toBe('err: ***');
    const json = await runCli(['run-script', secretive, 'leak', '--secrets', secretsFile, '--json']);
    expect(json.stdout).not.toContain(SECRET);
    expect(json.stderr).not.toContain(SECRET);
    expect(jsonOf(json.stdout)).toMatchObject({
      result: '***',
      stdout: 'out: ***\n{"success":true,"result":"***"}\n',
      stderr: 'err: ***\n',
    });
  });

  it('masks a secret that arrives in two pieces', async () => {
    const plain = await runCli(['run-script', secretive, 'leak-split', '--secrets', secretsFile]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe('a *** z');
    expect(plain.stderr).toBe('b *** y');
    const json = await runCli(['run-script', secretive, 'leak-split', '--secrets', secretsFile, '--json']);
    expect(jsonOf(json.stdout)).toMatchObject({ stdout: 'a *** z\n', stderr: 'b *** y\n' });
  });

  it('says where a broken secrets file is broken, and never quotes a value', async () => {
    const file = join(fresh(), 'env.json');
    writeFileSync(file, `{\n  "API_TOKEN": "${SECRET}",\n  "PORT": 8080\n}\n`);
    const r = await runCli(['run-script', secretive, 'env', '--secrets', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}:3:11: "PORT" must be text (a JSON string)`);
    expect(r.stderr).not.toContain(SECRET);
    const missing = await runCli(['run-script', secretive, 'env', '--secrets', join(fresh(), 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  });
});

describe('skills run-script: refusals (built CLI)', () => {
  it('refuses a ../ script and an absolute path; nothing runs', async () => {
    const parent = fresh();
    const marker = join(parent, 'ran');
    writeTree(parent, {
      'outside.sh': { content: `#!/bin/bash\ntouch "${marker}"\n`, mode: EXEC },
      'skill/SKILL.md': skillMd('name: skill\ndescription: A skill. Use when testing refusals.'),
      'skill/scripts/ok.sh': 'echo ok\n',
    });
    for (const name of ['../outside.sh', 'scripts/../../outside.sh', join(parent, 'outside.sh')]) {
      const r = await runCli(['run-script', join(parent, 'skill'), name]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`refused to run "${name}" of the skill skill (${join(parent, 'skill')})`);
      expect(r.stderr).toMatch(/leads outside the skill/);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a symlink that leads outside the skill; nothing runs', async () => {
    const parent = fresh();
    const marker = join(parent, 'ran');
    writeTree(parent, {
      'outside.sh': { content: `#!/bin/bash\ntouch "${marker}"\n`, mode: EXEC },
      'skill/SKILL.md': skillMd(
        'name: skill\ndescription: A skill. Use when testing refusals.\nscripts:\n  - tools/declared-link.sh',
      ),
      'skill/scripts/link.sh': { symlink: '../../outside.sh' },
      'skill/tools/declared-link.sh': { symlink: '../../outside.sh' },
      'skill/scripts/inside.sh': { symlink: '../tools/real.sh' },
      'skill/tools/real.sh': 'echo \'{"success":true,"result":"inside"}\'\n',
    });
    const skill = join(parent, 'skill');
    for (const name of ['link', 'scripts/link.sh', 'declared-link']) {
      const r = await runCli(['run-script', skill, name]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('is a symlink that leads outside the skill');
    }
    expect(existsSync(marker)).toBe(false);
    // A link that stays inside is fine.
    expect(jsonOf((await runCli(['run-script', skill, 'inside', '--json'])).stdout).result).toBe('inside');
  });

  it('refuses a script a manifest skill does not declare; nothing runs', async () => {
    const r = await runCli(['run-script', secretive, 'undeclared', '--secrets', secretsFile]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `refused to run "undeclared" of the skill secretive (${secretive}): scripts/undeclared.sh: it is not declared in manifest.json "scripts"`,
    );
    expect(existsSync(join(secretive, 'ran'))).toBe(false);
    const json = await runCli(['run-script', secretive, 'undeclared', '--json']);
    expect(jsonOf(json.stdout).error).toMatchObject({ code: 'E_USAGE' });
  });
});

describe('skills run-script: finding the skill (built CLI)', () => {
  it('finds a skill by id in the project folders, by a file inside it, and in the registry', async () => {
    const project = fresh('project');
    writeTree(join(project, '.agents/skills/polyglot'), POLYGLOT);
    const byId = await runCli(['run-script', 'polyglot', 'hello-node', '--args', '{"x":1}', '--json'], {
      cwd: project,
    });
    expect(jsonOf(byId.stdout).result).toMatchObject({ argv: { x: 1 } });
    const byFile = await runCli([
      'run-script',
      join(project, '.agents/skills/polyglot/scripts/hello-bash.sh'),
      'hello-bash',
      '--json',
    ]);
    expect(jsonOf(byFile.stdout).skill).toBe('polyglot');

    const src = fresh('src');
    writeTree(join(src, 'registered'), {
      'SKILL.md': skillMd(
        'name: registered\ndescription: A registered skill. Use when testing run-script by id.\nmetadata:\n  version: "1.2.0"',
      ),
      'scripts/hi.sh': 'echo "{\\"success\\":true,\\"result\\":\\"$SKILL_DIR\\"}"\n',
    });
    const reg = join(fresh('reg'), 'registry');
    expect((await runCli(['sync', src], { env: { SKILLS_REGISTRY: reg } })).exitCode).toBe(0);
    const fromRegistry = await runCli(['run-script', 'registered', 'hi', '--json'], {
      env: { SKILLS_REGISTRY: reg },
      cwd: project,
    });
    expect(jsonOf(fromRegistry.stdout).result).toBe(join(reg, 'built-in/registered@1.2.0'));
    const pinned = await runCli(['run-script', 'registered@1.2.0', 'hi', '--json'], {
      env: { SKILLS_REGISTRY: reg },
      cwd: project,
    });
    expect(jsonOf(pinned.stdout).result).toBe(join(reg, 'built-in/registered@1.2.0'));
    const unknown = await runCli(['run-script', 'nowhere', 'hi'], { env: { SKILLS_REGISTRY: reg }, cwd: project });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no skill "nowhere"');
    expect(unknown.stderr).toContain('hint: skills list');
  });
});
