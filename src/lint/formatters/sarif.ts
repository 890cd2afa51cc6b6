import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKS } from '../../model/checks.js';
import type { Rule } from '../types.js';
import type { LintReport } from '../linter.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** A folder as a file URI with one trailing slash: `/` is `file:///`, not `file:////` (whose path would be `//`). */
const folderUri = (dir: string) => {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
};

/**
 * SARIF 2.1.0, one run, paths relative to %SRCROOT% (the working directory) as GitHub code scanning expects; a file
 * outside it as an absolute file URI.
 */
export function toSarif(reports: LintReport[], rules: Rule[], options: { cwd: string; version: string }) {
  const descriptors = [
    ...Object.entries(CHECKS).map(([name, c]) => ({
      id: c.id,
      name,
      description: c.description,
      severity: 'error' as const,
      tags: ['validate'],
    })),
    ...rules.map((r) => ({
      id: r.names[0],
      name: r.names[1],
      description: r.description,
      severity: r.severity,
      tags: r.tags,
    })),
  ];
  const index = new Map(descriptors.map((d, i) => [d.id, i]));
  // A URI reference, relative to %SRCROOT%: each segment percent-encoded (a space, `%`, `#` or `ü` in a folder's name
  // would otherwise make another path, or a fragment). A file outside it is an absolute file URI, without uriBaseId
  // (SARIF 2.1.0 §3.4.3: a uriBaseId goes with a relative reference only): `../../x` was an artifact nowhere below
  // the root, and GitHub code scanning matches uris to the repository's files.
  const location = (file: string) => {
    const rel = relative(options.cwd, file);
    if (isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return { uri: pathToFileURL(file).href };
    return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  };
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'skills',
            version: options.version,
            informationUri: 'https://agentskills.io',
            rules: descriptors.map((d) => ({
              id: d.id,
              name: d.name,
              shortDescription: { text: d.description },
              defaultConfiguration: { level: LEVEL[d.severity] },
              properties: { tags: d.tags },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: folderUri(options.cwd) } },
        results: reports.flatMap((r) =>
          r.diagnostics.map((d) => ({
            ruleId: d.ruleId,
            ...(index.has(d.ruleId) ? { ruleIndex: index.get(d.ruleId) } : {}),
            level: LEVEL[d.severity],
            message: { text: d.hint ? `${d.message} (${d.hint.split('\n')[0]})` : d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: location(d.file),
                  ...(d.line !== undefined ? { region: { startLine: d.line, startColumn: d.column ?? 1 } } : {}),
                },
              },
            ],
          })),
        ),
      },
    ],
  };
}

/**
 * The SARIF 2.1.0 log of a run that failed before anything was linted (a path not found, a usage error): no results,
 * and its one invocation unsuccessful, with the error as a tool execution notification. An upload-sarif step then
 * reads a valid log that says the analysis did not run, rather than failing on a file that is not SARIF.
 */
export function sarifFailure(
  error: { code: string; message: string; hint?: string },
  options: { cwd: string; version: string; exitCode: number },
) {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'skills', version: options.version, informationUri: 'https://agentskills.io' } },
        invocations: [
          {
            executionSuccessful: false,
            exitCode: options.exitCode,
            workingDirectory: { uri: folderUri(options.cwd) },
            toolExecutionNotifications: [
              {
                level: 'error',
                message: { text: error.hint ? `${error.message} (${error.hint.split('\n')[0]})` : error.message },
                properties: { code: error.code, ...(error.hint ? { hint: error.hint } : {}) },
              },
            ],
          },
        ],
        results: [],
      },
    ],
  };
}
