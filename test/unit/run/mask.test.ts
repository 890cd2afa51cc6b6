import { describe, expect, it } from 'vitest';
import { ByteMasker, maskList, maskText, maskValue } from '../../../src/run/mask.js';

// Every form a JSON encoder writes a secret in, built here by rule (the e2e test runs real encoders).

interface Style {
  /** Non-ASCII as \uXXXX (Python's ensure_ascii, PHP, .NET). */
  ascii?: boolean;
  /** Upper-case hex digits (.NET, PHP's JSON_HEX_TAG). */
  upper?: boolean;
  /** `/` as `\/` (PHP). */
  slash?: boolean;
  /** `<`, `>`, `&` as \u escapes (Go, PHP's JSON_HEX_*, Gson). */
  html?: boolean;
  /** Every character as \uXXXX. */
  all?: boolean;
}

function encode(s: string, style: Style): string {
  const u = (n: number) => {
    const h = n.toString(16).padStart(4, '0');
    return `\\u${style.upper ? h.toUpperCase() : h}`;
  };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const code = s.charCodeAt(i);
    if (style.all) out += u(code);
    else if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '/' && style.slash) out += '\\/';
    else if ('<>&'.includes(c) && style.html) out += u(code);
    else if (code < 0x20 || (code > 0x7e && style.ascii)) out += u(code);
    else out += c;
  }
  return out;
}

const SECRET = 'pä/ss<w>&"rd\\ü😀-end';
const STYLES: Record<string, Style> = {
  'JSON.stringify': {},
  'Python json.dumps': { ascii: true },
  'Go encoding/json': { html: true },
  'PHP json_encode': { ascii: true, slash: true },
  'PHP with JSON_HEX_TAG': { ascii: true, slash: true, html: true, upper: true },
  '.NET System.Text.Json': { ascii: true, html: true, upper: true },
  'every character escaped': { all: true },
  'every character escaped, upper case': { all: true, upper: true },
};

describe('maskText: every form a JSON encoder writes', () => {
  const mask = maskList([SECRET]);
  for (const [name, style] of Object.entries(STYLES)) {
    it(`masks the secret as ${name} writes it`, () => {
      const once = encode(SECRET, style);
      expect(maskText(`a "${once}" b`, mask)).toBe('a "***" b');
    });
    if (style.all) continue;
    it(`masks the secret as ${name} writes it, written again inside JSON by any of them`, () => {
      const inner = `{"k": "${encode(SECRET, style)}"}`;
      for (const outer of Object.values(STYLES).filter((s) => !s.all))
        expect(maskText(`"${encode(inner, outer)}"`, mask)).toBe(`"${encode('{"k": "***"}', outer)}"`);
    });
  }

  it('masks mixed-case hex and a surrogate pair in either case', () => {
    const mask1 = maskList(['k€y😀ok']);
    expect(maskText('k\\u20AcY'.replace('Y', 'y') + '\\uD83d\\uDe00ok.', mask1)).toBe('***.');
    expect(maskText('k\\u20ACy\\ud83d\\ude00ok', mask1)).toBe('***');
  });

  it('masks Latin-1 bytes of a secret in a Latin-1 text', () => {
    const masker = new ByteMasker(maskList(['geheim-ä']));
    expect(masker.push(Buffer.from('x geheim-\xe4 y', 'latin1')).toString('latin1')).toBe('x *** y');
  });

  it('does not mask a near miss, or a broken escape', () => {
    const mask1 = maskList(['abcé1']);
    expect(maskText('abce1 abc\\u00e91x abc\\u00e 1', mask1)).toBe('abce1 ***x abc\\u00e 1');
    expect(maskText('abc\\U00e91', mask1)).toBe('abc\\U00e91');
  });
});

describe('ByteMasker', () => {
  const mask = maskList(['s3cr3t-tøken']);
  const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

  it('passes bytes that are not UTF-8 through unchanged, and masks a secret among them', () => {
    const m = new ByteMasker(mask);
    const out = Buffer.concat([m.push(binary), m.push(binary), m.end()]);
    expect(out.equals(Buffer.concat([binary, binary]))).toBe(true);
    const withSecret = Buffer.concat([binary, Buffer.from('s3cr3t-tøken'), binary]);
    const m2 = new ByteMasker(mask);
    expect(
      Buffer.concat([m2.push(withSecret), m2.end()]).equals(Buffer.concat([binary, Buffer.from('***'), binary])),
    ).toBe(true);
  });

  it('masks every form of a secret however the bytes are cut into chunks', () => {
    const forms = Object.values(STYLES).map((s) => encode('s3cr3t-tøken', s));
    const input = Buffer.from(`[${forms.join('|')}]`);
    const expected = `[${forms.map(() => '***').join('|')}]`;
    for (let i = 0; i <= input.length; i += 3) {
      const m = new ByteMasker(mask);
      const out = Buffer.concat([m.push(input.subarray(0, i)), m.push(input.subarray(i)), m.end()]);
      expect(out.toString(), `cut at ${i}`).toBe(expected);
    }
  });

  it('masks before it cuts: a secret across the budget never comes out in part', () => {
    const secret = 's3cr3t-tøken';
    const input = Buffer.from(`0123456789${secret}abcdefghijklmnop`);
    for (let budget = 1; budget < 40; budget++) {
      for (const cut of [3, 10, 14, 16]) {
        // As Capture feeds it: chunks while there is room, then the end.
        const m = new ByteMasker(mask);
        const out: Buffer[] = [];
        const room = () => budget - Buffer.concat(out).length;
        for (const chunk of [input.subarray(0, cut), input.subarray(cut)])
          if (room() > 0) out.push(m.push(chunk, room()));
        if (room() > 0) out.push(m.end(room()));
        const text = Buffer.concat(out).toString();
        expect(text, `budget ${budget}, cut at ${cut}`).toBe('0123456789***abcdefghijklmnop'.slice(0, budget));
        // What the output stands for: all of a masked secret, else the bytes kept.
        // Filled just before the secret, the output stands for the secret too or not, as the chunks fell.
        const stands =
          budget < 10
            ? [budget]
            : budget === 10
              ? [10, 23]
              : budget <= 13
                ? [23]
                : [Math.min(budget + 10, input.length)];
        expect(stands, `budget ${budget}, cut at ${cut}`).toContain(Math.min(m.consumed, input.length));
      }
    }
  });

  it('holds back only what may begin a secret, so output stays live', () => {
    const m = new ByteMasker(mask);
    expect(m.push(Buffer.from('line\nkey s3cr')).toString()).toBe('line\nkey ');
    expect(m.push(Buffer.from('3t-t\\u00')).toString()).toBe('');
    expect(m.push(Buffer.from('F8ken!\\')).toString()).toBe('***!');
    expect(m.push(Buffer.from('n')).toString()).toBe('\\n');
    expect(m.end().toString()).toBe('');
  });

  it('keeps up with a megabyte of backslashes and a secret that holds some', () => {
    const m = new ByteMasker(maskList(['C:\\Users\\me']));
    const started = Date.now();
    const out = Buffer.concat([m.push(Buffer.alloc(1 << 20, '\\')), m.end()]);
    expect(out.length).toBe(1 << 20);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('maskValue', () => {
  it('masks strings, keys and numbers at any depth, and leaves the rest', () => {
    const mask = maskList(['hunter22', '98765432']);
    expect(
      maskValue({ a: ['x hunter22 y', 98765432, 1, true, null], hunter22: { b: 'pw: hunter22' }, c: 9876543210 }, mask),
    ).toEqual({ a: ['x *** y', '***', 1, true, null], '***': { b: 'pw: ***' }, c: '***10' });
  });

  it('walks a value nested 100,000 deep without running out of stack, and masks at the bottom', () => {
    const depth = 100_000;
    const text = `${'[{"k":'.repeat(depth)}"x hunter22"${'}]'.repeat(depth)}`;
    let v = maskValue(JSON.parse(text), maskList(['hunter22']));
    for (let i = 0; i < depth; i++) v = (v as { k: unknown }[])[0]!.k;
    expect(v).toBe('x ***');
    // A "__proto__" key stays an own property, as JSON.parse made it.
    const proto = maskValue(JSON.parse('{"__proto__": {"p": "hunter22"}}'), maskList(['hunter22'])) as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual({ p: '***' });
  });

  it('hands a value back as it is when there is no secret to mask', () => {
    const value = { a: [1, { b: 'c' }] };
    expect(maskValue(value, maskList([]))).toBe(value);
    expect(maskValue(value, maskList(['ab']))).toBe(value);
  });
});
