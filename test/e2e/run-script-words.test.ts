import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// What a newcomer types: words after the script (and after --), a mistyped skill id, a .env file of secrets, and a
// declared secret that is not set. Real Python scripts through the built CLI.

const { fresh, cleanup } = tempFolders('skills-run-script-words-');
afterAll(cleanup);

const TOKEN = 'tok en#1-s3cr3t';
const PEM = 'line one\nline "two"';

let skill: string;

beforeAll(() => {
  skill = join(fresh('skills'), 'greeter');
  writeTree(skill, {
    'SKILL.md': skillMd('name: greeter\ndescription: Greets. Use when testing run-script words and secrets.'),
    '.env.example': '# What the skill needs\nAPI_TOKEN=\nPEM=\n',
    // Its words and what came on stdin.
    'scripts/greet.py':
      'import json, sys\nprint(json.dumps({"success": True, "result": {"words": sys.argv[1:], "stdin": sys.stdin.read()}}))\n',
    // The secrets reversed: the real values, which masking would otherwise hide.
    'scripts/secrets.py':
      'import json, os\nv = lambda n: os.environ[n][::-1] if n in os.environ else None\nprint(json.dumps({"success": True, "result": {"token": v("API_TOKEN"), "pem": v("PEM")}}))\n',
    'scripts/needs-token.py':
      'import json, os\nif not os.environ.get("API_TOKEN"):\n    print(json.dumps({"success": False, "error": "API_TOKEN is not set"}))\n    raise SystemExit(1)\nprint(json.dumps({"success": True, "result": "ok"}))\n',
    'scripts/touch.sh': `touch "$SKILL_DIR/ran"\n`,
  });
});

const resultOf = (stdout: string) => (JSON.parse(stdout) as { result: unknown }).result;

describe('skills run-script: words after the script (built CLI)', () => {
  it('passes the words after the script to it, as a JSON list given to --args is; stdin stays empty', async () => {
    const r = await runCli(['run-script', skill, 'greet', 'Alice', 'Bob smith', '--json'], { input: '{"a": 1}' });
    expect(r.exitCode).toBe(0);
    expect(resultOf(r.stdout)).toEqual({ words: ['Alice', 'Bob smith'], stdin: '' });
    const same = await runCli(['run-script', skill, 'greet', '--json', '--args', '["Alice", "Bob smith"]']);
    expect(resultOf(same.stdout)).toEqual(resultOf(r.stdout));
  });

  it('passes everything after -- as the words, options included, as npm run and cargo run do', async () => {
    const r = await runCli(['run-script', skill, 'greet', '--json', '--', 'Alice', '--loud', '-v', '--json']);
    expect(r.exitCode).toBe(0);
    expect(resultOf(r.stdout)).toEqual({ words: ['Alice', '--loud', '-v', '--json'], stdin: '' });
  });

  it('an option for the script before -- is refused, and the error says to put it after --', async () => {
    const r = await runCli(['run-script', skill, 'touch', 'Alice', '--loud']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "error: unknown option '--loud'\nhint: options for the script go after --: <script> -- --loud",
    );
    expect(existsSync(join(skill, 'ran'))).toBe(false);
  });

  it('refuses words together with --args or --args-file, saying how to give them once', async () => {
    const r = await runCli(['run-script', skill, 'touch', 'Alice', '--args', '{}']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: give the arguments once: words after the script, or --args, not both');
    expect(r.stderr).toContain(`hint: put the words in the JSON list instead: --args '["Alice"]'`);
    expect(existsSync(join(skill, 'ran'))).toBe(false);
  });

  it('holds the words to the bounds of --args lists', async () => {
    const words = Array.from({ length: 101 }, (_, i) => `w${i}`);
    const r = await runCli(['run-script', skill, 'touch', '--', ...words]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the words after the script: 101 command-line words, more than the 100 allowed');
    expect(existsSync(join(skill, 'ran'))).toBe(false);
  });
});

describe('skills run-script: a mistyped skill id (built CLI)', () => {
  it('names the nearest id of the skill folders', async () => {
    const project = fresh('project');
    writeTree(project, {
      '.agents/skills/web-scraping/SKILL.md': skillMd('name: web-scraping\ndescription: Scrapes. Use when testing.'),
    });
    const r = await runCli(['run-script', 'web-scrapng', '--list'], { cwd: project });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: no skill "web-scrapng": .*; did you mean "web-scraping"\?$/m);
    const json = await runCli(['run-script', 'web-scrapng', 'scraper', '--json'], { cwd: project });
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'E_NOT_FOUND', message: expect.stringContaining('did you mean "web-scraping"?') },
    });
    const far = await runCli(['run-script', 'pdf', '--list'], { cwd: project });
    expect(far.exitCode).toBe(2);
    expect(far.stderr).not.toContain('did you mean');
  });

  it('names the nearest id of the registry', async () => {
    const registry = join(fresh('reg'), '.skills');
    const env = { SKILLS_REGISTRY: registry };
    const sync = await runCli(['registry', 'sync', skill], { env, cwd: fresh('elsewhere') });
    expect(sync.exitCode).toBe(0);
    const r = await runCli(['run-script', 'greetr', 'greet'], { env, cwd: fresh('elsewhere') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('did you mean "greeter"?');
  });
});

describe('skills run-script: a .env file of secrets (built CLI)', () => {
  const dotenv = `# filled in from .env.example\nexport API_TOKEN="${TOKEN}" # a comment\nPEM="line one\nline \\"two\\""\n`;

  it.each([['secrets.env'], ['.env'], ['secrets']])('reads %s as dotenv', async (name) => {
    const file = join(fresh('env'), name);
    writeFileSync(file, dotenv);
    const r = await runCli(['run-script', skill, 'secrets', '--secrets', file, '--json']);
    expect(r.stderr).toBe('');
    expect(resultOf(r.stdout)).toEqual({ token: [...TOKEN].reverse().join(''), pem: [...PEM].reverse().join('') });
  });

  it('still reads JSON, by its extension or its {', async () => {
    const file = join(fresh('env'), 'secrets');
    writeFileSync(file, JSON.stringify({ API_TOKEN: TOKEN, greeter: { PEM: PEM } }));
    const r = await runCli(['run-script', skill, 'secrets', '--secrets', file, '--json']);
    expect(r.stderr).toBe('');
    expect(resultOf(r.stdout)).toEqual({ token: [...TOKEN].reverse().join(''), pem: [...PEM].reverse().join('') });
  });

  it('says where a broken .env file is broken, and never quotes a value', async () => {
    const file = join(fresh('env'), 'secrets.env');
    writeFileSync(file, `API_TOKEN=ok\nPEM='${TOKEN}\n`);
    const r = await runCli(['run-script', skill, 'touch', '--secrets', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: ${file}:2:5: the value opened with ' here has no closing '`);
    expect(r.stderr).not.toContain(TOKEN);
    expect(existsSync(join(skill, 'ran'))).toBe(false);
  });

  it('a declared secret that is not set: the warning and the hint name --secrets <file> and --inherit-env', async () => {
    const env = { SKILLS_REGISTRY: join(fresh('none'), '.skills') };
    const r = await runCli(['run-script', skill, 'needs-token'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('{"success": false, "error": "API_TOKEN is not set"}');
    const [warning, hint] = r.stderr.split('\n');
    expect(warning).toMatch(
      /^warning: greeter declares API_TOKEN, PEM, but there is no secrets file at .*: the script runs without them; give them with --secrets <file> \(NAME=value lines, or JSON\), or pass your environment's with --inherit-env$/,
    );
    expect(hint).toBe(
      'hint: scripts/needs-token.py failed, and it ran without API_TOKEN, PEM: give them with --secrets <file>, or set them in your environment and pass --inherit-env',
    );
    const inherited = await runCli(['run-script', skill, 'needs-token', '--inherit-env'], {
      env: { ...env, API_TOKEN: TOKEN, PEM },
    });
    expect(inherited.exitCode).toBe(0);
    expect(inherited.stderr).toBe('');
  });
});
