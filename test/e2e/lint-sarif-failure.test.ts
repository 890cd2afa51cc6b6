import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolders } from '../helpers/cli.js';

// `lint --format sarif` that fails before anything is linted (a path not found, a usage error) still prints a SARIF
// 2.1.0 log, so that GitHub's upload-sarif reads a log saying the analysis did not run instead of failing on
// {"error": …}: no results, its one invocation unsuccessful, the error a tool execution notification of level error.
// The exit code is the failure's own (2). The keys are checked against those the SARIF 2.1.0 schema allows.

const { fresh, cleanup } = tempFolders('skills-sarif-failure-');
afterAll(cleanup);

interface Notification {
  level: string;
  message: { text: string };
  properties?: { code?: string; hint?: string };
}
interface FailureLog {
  version: string;
  $schema: string;
  runs: {
    tool: { driver: { name: string; version: string } };
    invocations: { executionSuccessful: boolean; exitCode: number; toolExecutionNotifications: Notification[] }[];
    results: unknown[];
  }[];
}

/** The keys the SARIF 2.1.0 schema allows on the objects the log uses (each has additionalProperties: false). */
const ALLOWED = {
  invocation: ['executionSuccessful', 'exitCode', 'workingDirectory', 'toolExecutionNotifications'],
  notification: ['level', 'message', 'properties', 'descriptor', 'locations'],
  message: ['text', 'markdown', 'id', 'arguments', 'properties'],
};

function failureLog(stdout: string): FailureLog {
  const doc = JSON.parse(stdout) as FailureLog;
  expect(doc.version).toBe('2.1.0');
  expect(doc.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
  expect(doc.runs).toHaveLength(1);
  const [run] = doc.runs;
  expect(run!.tool.driver.name).toBe('skills');
  expect(run!.results).toEqual([]);
  expect(run!.invocations).toHaveLength(1);
  const inv = run!.invocations[0]!;
  for (const k of Object.keys(inv)) expect(ALLOWED.invocation, `invocation.${k}`).toContain(k);
  for (const n of inv.toolExecutionNotifications) {
    for (const k of Object.keys(n)) expect(ALLOWED.notification, `notification.${k}`).toContain(k);
    for (const k of Object.keys(n.message)) expect(ALLOWED.message, `message.${k}`).toContain(k);
  }
  return doc;
}

describe('lint --format sarif when the run fails before linting', () => {
  it('a path not found: a SARIF log with executionSuccessful false and the error, exit 2', async () => {
    const cwd = fresh();
    const r = await runCli(['lint', 'missing-folder', '--format', 'sarif'], { cwd });
    expect(r.exitCode).toBe(2);
    const inv = failureLog(r.stdout).runs[0]!.invocations[0]!;
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.exitCode).toBe(2);
    expect(inv.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: {
          text: 'missing-folder: no such file or folder (check the path; run from the folder that holds your skills)',
        },
        properties: { code: 'E_NOT_FOUND', hint: 'check the path; run from the folder that holds your skills' },
      },
    ]);
    // Said on stderr too, for the CI log.
    expect(r.stderr).toContain('error: missing-folder: no such file or folder');
  });

  it('a usage error (an unknown option, --format=sarif) is a SARIF log too', async () => {
    const r = await runCli(['lint', '.', '--format=sarif', '--no-such-option'], { cwd: fresh() });
    expect(r.exitCode).toBe(2);
    const inv = failureLog(r.stdout).runs[0]!.invocations[0]!;
    expect(inv.toolExecutionNotifications[0]!.message.text).toBe("unknown option '--no-such-option'");
    expect(inv.toolExecutionNotifications[0]!.properties?.code).toBe('E_USAGE');
  });

  it('--format json still prints {"error": …}', async () => {
    const r = await runCli(['lint', 'missing-folder', '--format', 'json'], { cwd: fresh() });
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'E_NOT_FOUND' } });
  });
});
