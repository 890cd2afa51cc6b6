// Side by side with the reference validator (skills-ref, Python; bench/peers.mjs referencePeer): validate of the
// real skill collections ($SKILLS_REAL_CORPORA, bench/false-positives.mjs), both tools in one process over the
// same skill folders, and the cold start of validating one skill.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realCollections } from '../false-positives.mjs';
import { benchTempDir, caUnsetNote, comparePair, nodeCommand, ratioAim } from '../lib.mjs';
import { referencePeer } from '../peers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'bin', 'skills.js');

// The reference's own validate(), called once per skill folder in one Python process; exit 0 whatever it finds.
const LOOP =
  'import sys\nfrom pathlib import Path\nfrom skills_ref.validator import validate\nfor d in sys.argv[1:]: validate(Path(d))';

/** Every folder below `dir` that holds a SKILL.md (not under .git or node_modules). */
function skillFolders(dir, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  if (names.includes('SKILL.md')) out.push(dir);
  for (const n of names) {
    if (n === '.git' || n === 'node_modules') continue;
    const p = join(dir, n);
    try {
      if (statSync(p).isDirectory()) skillFolders(p, out);
    } catch {
      // a dangling link: not a skill folder
    }
  }
  return out;
}

const pythonCommand = (ref, args, label) => ({
  file: ref.python,
  args,
  cwd: ROOT,
  env: { PYTHONPATH: ref.src },
  label,
});

let real;
function realSkills() {
  if (real) return real;
  const c = realCollections();
  if (c.skipped) return (real = { missing: c.skipped });
  process.on('exit', c.cleanup);
  const folders = c.collections.flatMap((x) => skillFolders(x.dir));
  return (real = { collections: c.collections, folders });
}

export const rows = [
  {
    name: 'validate the real skills: skills over the reference validator (skills-ref, Python)',
    aim: ratioAim(1.0),
    async run() {
      const ref = referencePeer();
      if (ref.missing) return { missing: ref.missing };
      const r = realSkills();
      if (r.missing) return { missing: r.missing };
      // Ours exits 1 when a skill has errors (some real ones do); the reference loop exits 0: run ours through sh.
      const dirs = r.collections.map((x) => x.dir);
      const quoted = dirs.map((d) => `"${d}"`).join(' ');
      const result = await comparePair({
        measured: {
          file: '/bin/sh',
          args: ['-c', `"${process.execPath}" "${CLI}" validate ${quoted} --format json >/dev/null; test $? -le 1`],
          cwd: ROOT,
          label: 'skills validate <collections> --format json',
        },
        baseline: pythonCommand(ref, ['-c', LOOP, ...r.folders], 'skills_ref.validator.validate() per folder'),
        runs: 5,
        warmups: 1,
      });
      result.notes = [`${r.folders.length} SKILL.md folders in ${dirs.length} collections; both in one process`];
      return result;
    },
  },
  {
    name: 'cold start: validate one skill, skills over the reference validator (skills-ref, Python)',
    aim: ratioAim(1.0),
    async run() {
      const ref = referencePeer();
      if (ref.missing) return { missing: ref.missing };
      // The one-skill fixture of the other rows uses YAML flow lists, which the reference's strictyaml refuses:
      // a plain skill that both accept.
      const dir = join(benchTempDir(), 'reference-one', 'pdf-invoices');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'SKILL.md'),
        '---\nname: pdf-invoices\ndescription: Extract totals and dates from PDF invoices. Use when the user asks to read an invoice.\nlicense: MIT\n---\n\n# PDF invoices\n\nRead the invoice with the script.\n',
      );
      const baseline = pythonCommand(ref, ['-m', 'skills_ref.cli', 'validate', dir], 'skills-ref validate <one>');
      const measured = nodeCommand([CLI, 'validate', dir], { cwd: ROOT, label: 'skills validate <one>' });
      const result = await comparePair({ measured, baseline, runs: 10, warmups: 2 });
      // Node reads the file NODE_EXTRA_CA_CERTS names at every start, before any code of ours runs (tens of ms for a
      // system's whole CA bundle); Python reads no such variable. Where it is set, say what it costs: the verdict
      // stays on the run above, under the environment as it is.
      const note = await caUnsetNote({ measured, baseline, runs: 10, warmups: 2 });
      if (note) result.notes = [note];
      return result;
    },
  },
];
