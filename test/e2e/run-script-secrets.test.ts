import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir, testEnv } from '../helpers/cli.js';
import { skillMd, writeTree } from '../helpers/tree.js';

// run-script's output as an adversary shapes it: a secret across the 1 MB cap, a secret in every form a JSON
// encoder writes, a failure reported after the cap, and bytes that are not UTF-8. Real scripts (Python, Node)
// through the built CLI.

const MB = 1024 * 1024;
/** Non-ASCII, an astral character, and every character encoders like to escape. */
const SECRET = 'tök/<&>"\\😀-s3cr3t-42';

const SCRIPTS = {
  'SKILL.md': skillMd('name: leaky\ndescription: Prints its token in many ways. Use when testing run-script masking.'),
  '.env.example': 'API_TOKEN=\n',
  // {before, stream, pieces}: `before` bytes of x, then the secret (in `pieces` writes), then more.
  'scripts/cut.py': `import json, os, sys, time
a = json.loads(sys.argv[1])
out = getattr(sys, a.get("stream", "stdout")).buffer
s = os.environb[b"API_TOKEN"]
out.write(b"x" * a["before"])
n = a.get("pieces", 1)
for i in range(n):
    out.write(s[i * len(s) // n:(i + 1) * len(s) // n])
    out.flush()
    time.sleep(0.05 if n > 1 else 0)
out.write(b"\\n" + b"y" * 100 + b"\\n")
`,
  // Each line a JSON string as an encoder writes the secret; then a result line holding it.
  'scripts/forms.py': `import json, os, sys
a = json.loads(sys.argv[1])
s = os.environb[b"API_TOKEN"].decode("utf-8")
def esc(c, upper):
    h = "%04x" % ord(c) if ord(c) < 0x10000 else None
    if h is None:
        v = ord(c) - 0x10000
        h = "%04x\\\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
    return "\\\\u" + (h.upper().replace("\\\\U", "\\\\u") if upper else h)
def custom(ascii, html, slash, upper, every=False):
    out = ""
    for c in s:
        if every or (ascii and ord(c) > 0x7E) or (html and c in "<>&") or ord(c) < 0x20:
            out += esc(c, upper)
        elif c in '"\\\\':
            out += "\\\\" + c
        elif c == "/" and slash:
            out += "\\\\/"
        else:
            out += c
    return '"' + out + '"'
forms = [
    json.dumps(s),                                   # Python: \\u00f6, surrogate pair, lower case
    json.dumps(s, ensure_ascii=False),               # literal UTF-8
    json.dumps(s).replace("/", "\\\\/"),             # PHP json_encode
    custom(True, True, True, True),                  # PHP with JSON_HEX_TAG | JSON_HEX_AMP: \\u003C
    custom(False, True, False, False),               # Go encoding/json: \\u003c \\u003e \\u0026
    custom(True, True, False, True),                 # .NET System.Text.Json: \\u00F6, \\uD83D\\uDE00
    custom(True, False, False, False, every=True),   # every character escaped
    custom(True, False, False, True, every=True),
    json.dumps(json.dumps(s)),                       # JSON in JSON
    json.dumps(json.dumps(s, ensure_ascii=False)),
]
for f in forms:
    print(f)
key = "result" if a.get("ok", True) else "error"
print(json.dumps({"success": a.get("ok", True), key: {"plain": "token " + s, s: [s, {"deep": s}]}}))
`,
  'scripts/node-forms.mjs': `const s = process.env.API_TOKEN;
console.log(JSON.stringify(s));
console.log(JSON.stringify(JSON.stringify({ s })));
console.log(JSON.stringify({ success: false, error: \`bad token \${s}\` }));
`,
  // A result line after more than 1 MB of output, in several shapes.
  'scripts/late.py': `import json, os, sys
a = json.loads(sys.argv[1])
s = os.environb[b"API_TOKEN"].decode("utf-8")
mode = a["mode"]
w = sys.stdout.write
if mode == "huge":
    w('{"success": true}\\n')
    w(json.dumps({"success": False, "error": "e" * (2 * 1024 * 1024)}) + "\\n")
    sys.exit(0)
for i in range(30000):
    w("log line %06d of a long and chatty run\\n" % i)
fail = json.dumps({"success": False, "error": "boom " + s})
if mode == "after":
    w(fail + "\\n")
elif mode == "nonl":
    w(fail)
elif mode == "crlf":
    w(fail + "\\r\\n")
elif mode == "middle":
    w(fail + "\\n")
    for i in range(60000):
        w("more output %06d after the result line\\n" % i)
elif mode == "success":
    w(json.dumps({"success": True, "result": "late " + s}) + "\\n")
`,
  // A result line nested `depth` deep, the secret at the bottom.
  'scripts/deep.py': `import json, os, sys
n = json.loads(sys.argv[1])["depth"]
s = os.environb[b"API_TOKEN"].decode("utf-8")
print('{"success": true, "result": ' + "[" * (n - 1) + json.dumps(s) + "]" * (n - 1) + "}")
`,
  // Bytes that are not UTF-8.
  'scripts/binary.py': `import json, os, sys, time
a = json.loads(sys.argv[1])
s = os.environb[b"API_TOKEN"]
raw = bytes(range(256))
mode = a["mode"]
if mode == "all":
    sys.stdout.buffer.write(raw)
    sys.stderr.buffer.write(raw[::-1])
elif mode == "secret":
    sys.stdout.buffer.write(raw + s + raw)
elif mode == "split":
    for piece in [b"\\xe2\\x82", b"\\xac\\xff", b"\\xf0\\x9f", b"\\x98", b"\\x80\\xc3", b"\\x28"]:
        sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
        time.sleep(0.03)
elif mode == "big":
    sys.stdout.buffer.write(raw * (3 * 4096 + 7))
`,
};

let skill: string;
let secrets: string;
let cleanup: () => void;

beforeAll(() => {
  const t = tempDir('skills-run-secrets-e2e-');
  cleanup = t.cleanup;
  skill = join(t.dir, 'leaky');
  writeTree(skill, SCRIPTS);
  secrets = join(t.dir, 'env.json');
  writeFileSync(secrets, JSON.stringify({ API_TOKEN: SECRET }));
});
afterAll(() => cleanup());

const run = (script: string, args: object, json = false) =>
  runCli(
    ['run-script', skill, script, '--secrets', secrets, '--args', JSON.stringify(args), ...(json ? ['--json'] : [])],
    {
      timeout: 60_000,
    },
  );

/** The built CLI's output as bytes. */
async function runBytes(script: string, args: object) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const home = mkdtempSync(join(tmpdir(), 'skills-home-'));
  try {
    const r = await execa(
      process.execPath,
      [BIN, 'run-script', skill, script, '--secrets', secrets, '--args', JSON.stringify(args)],
      { env: testEnv(home), extendEnv: false, encoding: 'buffer', reject: false, stdin: 'ignore', timeout: 60_000 },
    );
    return { exitCode: r.exitCode, stdout: Buffer.from(r.stdout), stderr: Buffer.from(r.stderr) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Every piece of the secret of 3 or more bytes, as bytes: none may be in the output. */
const PIECES = (() => {
  const s = Buffer.from(SECRET);
  const out: Buffer[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.subarray(i, i + 3));
  return out;
})();
const leaks = (out: string | Buffer) => PIECES.filter((p) => Buffer.from(out).includes(p)).map(String);

describe('run-script: a secret across the 1 MB cap', () => {
  const secretBytes = Buffer.byteLength(SECRET);
  for (const before of [MB - 1, MB - 3, MB - 10, MB - secretBytes + 1, MB - secretBytes - 1]) {
    for (const stream of ['stdout', 'stderr'] as const) {
      it(`is never printed in part (${MB - before} bytes before the cap, ${stream}, in 3 writes)`, async () => {
        const r = await run('cut', { before, stream, pieces: 3 });
        expect(r.exitCode).toBe(0);
        const out = stream === 'stdout' ? r.stdout : r.stderr.slice(0, MB);
        expect(leaks(out)).toEqual([]);
        expect(out.slice(0, MB)).toBe(`${'x'.repeat(before)}${'***\n'.concat('y'.repeat(100))}`.slice(0, MB));
        expect(r.stderr).toContain(`${stream} was truncated at 1 MB`);
      });
    }
  }

  it('is never kept in part in the --json document either', async () => {
    const r = await run('cut', { before: MB - 4, pieces: 2 }, true);
    const doc = JSON.parse(r.stdout) as { stdout: string; truncated: { stdout: boolean } };
    expect(doc.truncated.stdout).toBe(true);
    expect(doc.stdout).toBe(`${'x'.repeat(MB - 4)}***\n`);
    expect(leaks(r.stdout)).toEqual([]);
  });
});

describe('run-script: a secret in every form a JSON encoder writes', () => {
  it('masks each form in the live output and the parsed result, keys included (Python)', async () => {
    const plain = await run('forms', {});
    expect(plain.exitCode).toBe(0);
    const lines = plain.stdout.split('\n');
    expect(lines.slice(0, 8)).toEqual(Array(8).fill('"***"'));
    expect(lines.slice(8, 10)).toEqual(['"\\"***\\""', '"\\"***\\""']);
    expect(leaks(plain.stdout)).toEqual([]);
    const json = await run('forms', {}, true);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(doc.success).toBe(true);
    expect(doc.result).toEqual({ plain: 'token ***', '***': ['***', { deep: '***' }] });
    expect(leaks(json.stdout)).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('s3cr3t');
  });

  it('masks a failure that holds the secret (Python, Node)', async () => {
    const py = JSON.parse((await run('forms', { ok: false }, true)).stdout) as Record<string, unknown>;
    expect(py).toMatchObject({ success: false, error: { plain: 'token ***', '***': ['***', { deep: '***' }] } });
    const node = await run('node-forms', {}, true);
    const doc = JSON.parse(node.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ success: false, error: 'bad token ***' });
    expect((doc.stdout as string).split('\n').slice(0, 2)).toEqual(['"***"', '"{\\"s\\":\\"***\\"}"']);
    expect(leaks(node.stdout)).toEqual([]);
  });
});

describe('run-script: a result line after 1 MB of output', () => {
  for (const mode of ['after', 'nonl', 'crlf', 'middle']) {
    it(`is read: a failure stays a failure (${mode})`, async () => {
      const r = await run('late', { mode }, true);
      expect(r.exitCode).toBe(0);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(doc).toMatchObject({ success: false, error: 'boom ***', truncated: { stdout: true } });
      expect(leaks(r.stdout)).toEqual([]);
    });
  }

  it('is read: a late success is a success, its result masked', async () => {
    const doc = JSON.parse((await run('late', { mode: 'success' }, true)).stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ success: true, result: 'late ***' });
  });

  it('without one, long output alone is no failure', async () => {
    const doc = JSON.parse((await run('late', { mode: 'none' }, true)).stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ success: true, result: null, truncated: { stdout: true } });
  });

  it('too long to read, is never taken for a success', async () => {
    const r = await run('late', { mode: 'huge' }, true);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc.success).toBe(false);
    expect(doc.error).toBe(
      'stdout has a line of more than 1048576 bytes that may be its result line, and it was not read',
    );
    const plain = await run('late', { mode: 'huge' });
    expect(plain.stderr).toContain('it was not read; the run is not reported as a success');
  });
});

describe('run-script: a result line nested deep', () => {
  it('too deep (5,000 levels) is never taken for a success, and is no crash; as deep as allowed (1,000) is read and masked', async () => {
    const r = await run('deep', { depth: 5000 }, true);
    expect(r.stderr).not.toContain('RangeError');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ success: false, exitCode: 0 });
    expect(doc.error).toBe(
      "stdout has a line nested more than 1000 levels deep that may be its result line, and it was not read (a result may nest 1000 levels, as deep as Python's json reads)",
    );
    expect(leaks(r.stdout)).toEqual([]);
    const plain = await run('deep', { depth: 5000 });
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toContain('nested more than 1000 levels deep');
    expect(plain.stderr).not.toContain('RangeError');
    // As deep as allowed (1,000 levels) is read, its secret masked at the bottom.
    const ok = await run('deep', { depth: 1000 }, true);
    expect(ok.exitCode).toBe(0);
    const read = JSON.parse(ok.stdout) as { success: boolean; result: unknown };
    expect(read.success).toBe(true);
    let v = read.result;
    for (let i = 1; i < 1000; i++) v = (v as unknown[])[0];
    expect(v).toBe('***');
    expect(leaks(ok.stdout)).toEqual([]);
  });
});

describe('run-script: output that is not UTF-8', () => {
  const raw = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

  it('passes 256 raw bytes through as 256 bytes, on stdout and stderr', async () => {
    const r = await runBytes('binary', { mode: 'all' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.equals(raw)).toBe(true);
    expect(r.stderr.equals(Buffer.from(raw).reverse())).toBe(true);
  });

  it('masks a secret among raw bytes and leaves every other byte alone', async () => {
    const r = await runBytes('binary', { mode: 'secret' });
    expect(r.stdout.equals(Buffer.concat([raw, Buffer.from('***'), raw]))).toBe(true);
  });

  it('passes characters split across writes, and broken ones, through unchanged', async () => {
    const r = await runBytes('binary', { mode: 'split' });
    expect(r.stdout.equals(Buffer.from('e282acfff09f9880c328', 'hex'))).toBe(true);
  });

  it('cuts raw output at exactly 1 MB', async () => {
    const r = await runBytes('binary', { mode: 'big' });
    expect(r.stdout.length).toBe(MB);
    expect(r.stdout.equals(Buffer.concat(Array(4096).fill(raw)))).toBe(true);
    expect(r.stderr.toString()).toContain(`stdout was truncated at 1 MB (1048576 bytes kept, ${256 * 7 + 2 * MB} more`);
  });
});

describe('run-script: what the system would refuse to start', () => {
  let t: { dir: string; cleanup: () => void };
  beforeAll(() => {
    t = tempDir('skills-run-start-');
    writeTree(t.dir, {
      'sk/SKILL.md': skillMd('name: sk\ndescription: Starts a script. Use when testing run-script spawn errors.'),
      'sk/.env.example': 'LONG_TOKEN=\n',
      'sk/scripts/hi.sh': '#!/bin/bash\necho ok\n',
      'sk/scripts/odd.sh': `#!${join(t.dir, 'not-a-program')}\necho ok\n`,
      'not-a-program': 'echo this file is not executable\n',
      'long.env': `LONG_TOKEN=${'y'.repeat(200_000)}\n`,
      // A binary token pasted into a JSON secrets file: "\u0000" is a NUL.
      'nul.json': JSON.stringify({ LONG_TOKEN: 'TOPSECRET\u0000VALUE-9f8e7d' }),
    });
  });
  afterAll(() => t.cleanup());

  it('refuses a secret over the 128 KiB Linux allows one variable, naming it, its size and what to do', async () => {
    const r = await runCli(['run-script', join(t.dir, 'sk'), 'hi', '--secrets', join(t.dir, 'long.env')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: cannot run ${join(t.dir, 'sk/scripts/hi.sh')}: the environment variable LONG_TOKEN is 200,012 bytes (as LONG_TOKEN=value), over the 131,072 bytes (128 KiB) Linux allows one variable\n` +
        'hint: put the value in a file and give the script its path instead (e.g. LONG_TOKEN_FILE=/path/to/file in the secrets file, declared beside LONG_TOKEN), for it to read',
    );
  });

  it('refuses a secret holding a NUL before the script starts, naming the variable, never its value (stderr, --json)', async () => {
    const nul = join(t.dir, 'nul.json');
    const r = await runCli(['run-script', join(t.dir, 'sk'), 'hi', '--secrets', nul]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: the environment variable LONG_TOKEN cannot be given to the script: its value in the secrets file ${nul} holds a NUL character (\\0), which no program's environment can hold; the script was not run\n` +
        'hint: give LONG_TOKEN a value without a NUL (binary data encoded as base64 or hex, or the path of a file that holds it)',
    );
    const json = await runCli(['run-script', join(t.dir, 'sk'), 'hi', '--secrets', nul, '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('E_CONFIG');
    for (const out of [r.stdout, r.stderr, json.stdout, json.stderr]) {
      expect(out).not.toContain('TOPSECRET');
      expect(out).not.toContain('VALUE-9f8e7d');
    }
  });

  it('tells any other spawn error as what it means, naming the script', async () => {
    const r = await runCli(['run-script', join(t.dir, 'sk'), 'odd']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `error: cannot run ${join(t.dir, 'sk/scripts/odd.sh')} with ${join(t.dir, 'not-a-program')}: permission denied: the interpreter is not an executable file, or a folder on its way may not be searched (EACCES)\nhint: check the shebang`,
    );
    expect(r.stderr).not.toContain('spawn');
  });
});
