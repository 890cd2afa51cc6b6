import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';

// "Failures are JSON too": a usage error that the option parser finds (an unknown option, a missing argument, a
// value outside the choices) is, with --json, the same {"error": {code, message, hint?}} document on stdout as the
// errors the commands find themselves, and nothing on stderr; without --json it stays text on stderr.

const { fresh, cleanup } = tempFolders('skills-json-usage-');
afterAll(cleanup);

interface JsonError {
  error: { code: string; message: string; hint?: string };
}

async function jsonFailure(args: string[]): Promise<JsonError['error']> {
  const r = await runCli(args, { cwd: fresh() });
  expect(r.exitCode, args.join(' ')).toBe(2);
  expect(r.stderr, args.join(' ')).toBe('');
  const doc = JSON.parse(r.stdout) as JsonError;
  expect(Object.keys(doc)).toEqual(['error']);
  expect(doc.error.code).toBe('E_USAGE');
  return doc.error;
}

describe('--json and the option parser', () => {
  it('an unknown option: its message, and the suggestion as the hint', async () => {
    expect(await jsonFailure(['validate', '--json', '--strcit'])).toEqual({
      code: 'E_USAGE',
      message: "unknown option '--strcit'",
      hint: 'did you mean --strict?',
    });
    expect(await jsonFailure(['doctor', '--bogus', '--json'])).toEqual({
      code: 'E_USAGE',
      message: "unknown option '--bogus'",
    });
  });

  it('a missing argument, a missing option value, a value outside the choices', async () => {
    expect((await jsonFailure(['resolve', '--json'])).message).toBe("missing required argument 'specs'");
    expect((await jsonFailure(['install', '--json', '--agent'])).message).toBe(
      "option '-a, --agent <names>' argument missing",
    );
    expect((await jsonFailure(['render-prompt', '--json', '--tier', 'bogus'])).message).toMatch(
      /^option '--tier <tier>' argument 'bogus' is invalid\. Allowed choices are none, breadcrumb, catalog, full\.$/,
    );
  });

  it("keeps a command's own hint (run-script: the script's options go after --)", async () => {
    expect(await jsonFailure(['run-script', 'some-skill', 'greet', '--loud', '--json'])).toEqual({
      code: 'E_USAGE',
      message: "unknown option '--loud'",
      hint: 'options for the script go after --: <script> -- --loud',
    });
  });

  it('is text on stderr without --json, and --json after -- is the script’s, not ours', async () => {
    const plain = await runCli(['validate', '--strcit'], { cwd: fresh() });
    expect(plain.exitCode).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toBe("error: unknown option '--strcit'\n(Did you mean --strict?)");
    const script = await runCli(['run-script', 'some-skill', 'greet', '--loud', '--', '--json'], { cwd: fresh() });
    expect(script.exitCode).toBe(2);
    expect(script.stdout).toBe('');
    expect(script.stderr).toContain("error: unknown option '--loud'");
  });
});
