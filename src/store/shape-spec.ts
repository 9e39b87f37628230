// The ledger shape table's vocabulary (ledger-shape.ts writes the table, once), and the table
// turned into one plain function per object, which answers only "passes" or "fails". The
// interpreter in ledger-shape.ts stays the rule's reading for every failure: it names the path
// and what was found there; the compiled form only lets a good ledger through sooner.
//
// Why compile: the CLI checks a ledger once per command, cold, and a long ledger another writer
// laid out (the original engine's first touch) is tens of thousands of values. The interpreter
// reads each field's key from an array (a property load V8 cannot specialise) and dispatches on
// its kind; the compiled function reads `record["note"]` with the key written in it, so every
// record (one hidden class, as JSON.parse builds them) goes through the same fast loads.
// Nothing from a ledger is ever part of the generated code: only the table's own keys and words.
import { isPlain } from '../engine/plain-pieces';

export const STRING = 0;
export const FLAG = 1;
export const NUMBER = 2;
export const POSITIVE = 3;
export const COUNT = 4;
export const WORD = 5;
export const LIST = 6;
export const MAP = 7;
export const OBJECT = 8;
export const RECORDS = 9;
/** Records whose digest matched (records-digest.ts): checked when written, only the list is checked. */
export const PROVEN_RECORDS = 10;

export interface Spec {
  readonly kind: number;
  readonly expected: string;
  readonly nullable: boolean;
  readonly words?: readonly string[];
  readonly item?: Spec;
  readonly keys?: readonly string[];
  readonly fields?: readonly Spec[];
  readonly required?: readonly boolean[];
}

/** Whether a value passes the spec's check (never why not: see ledger-shape.ts). */
export type Passes = (value: unknown) => boolean;

/**
 * `spec` as one function per object, list and map spec, or null when this runtime cannot compile
 * code (or the benchmark switched the piece off): then the interpreter decides alone.
 */
export function compileSpec(spec: Spec): Passes | null {
  if (isPlain('shape-compiled')) return null;
  const functions: string[] = [];
  const names = new Map<Spec, string>();

  /** The name of the function checking values of a container spec. */
  const functionFor = (of: Spec): string => {
    const known = names.get(of);
    if (known !== undefined) return known;
    const name = `f${names.size}`;
    names.set(of, name);
    functions.push(`function ${name}(v) {\n${bodyOf(of)}\n  return true;\n}`);
    return name;
  };

  /** An expression of `x` that is true when `x` passes `of` (x is a variable name). */
  const passes = (of: Spec, x: string): string => {
    const test = testOf(of, x);
    return of.nullable ? `(${x} === null || ${test})` : test;
  };

  const testOf = (of: Spec, x: string): string => {
    switch (of.kind) {
      case STRING:
        return `typeof ${x} === 'string'`;
      case FLAG:
        return `typeof ${x} === 'boolean'`;
      case NUMBER:
        return `(typeof ${x} === 'number' && Number.isFinite(${x}))`;
      case POSITIVE:
        return `(Number.isSafeInteger(${x}) && ${x} >= 1)`;
      case COUNT:
        return `(Number.isSafeInteger(${x}) && ${x} >= 0)`;
      case WORD:
        return `(${(of.words as readonly string[]).map((w) => `${x} === ${JSON.stringify(w)}`).join(' || ')})`;
      case PROVEN_RECORDS:
        return `Array.isArray(${x})`;
      case LIST:
      case RECORDS:
      case MAP:
      case OBJECT:
        return `${functionFor(of)}(${x})`;
    }
    throw new Error(`internal: no compiled check for spec kind ${of.kind}`);
  };

  const bodyOf = (of: Spec): string => {
    const lines: string[] = [];
    if (of.kind === LIST || of.kind === RECORDS) {
      lines.push('  if (!Array.isArray(v)) return false;');
      lines.push('  for (let i = 0; i < v.length; i += 1) {');
      lines.push('    const e = v[i];');
      lines.push(`    if (!(${passes(of.item as Spec, 'e')})) return false;`);
      // Records numbered 1, 2, 3… in file order (each is an object with a positive `n` by now).
      if (of.kind === RECORDS) lines.push('    if (e.n !== i + 1) return false;');
      lines.push('  }');
    } else if (of.kind === MAP) {
      lines.push("  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;");
      lines.push('  for (const k in v) {');
      lines.push('    const e = v[k];');
      lines.push(`    if (!(${passes(of.item as Spec, 'e')})) return false;`);
      lines.push('  }');
    } else {
      lines.push("  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;");
      lines.push('  let f;');
      const keys = of.keys as readonly string[];
      keys.forEach((key, i) => {
        const field = (of.fields as readonly Spec[])[i] as Spec;
        lines.push(`  f = v[${JSON.stringify(key)}];`);
        lines.push(
          (of.required as readonly boolean[])[i]
            ? `  if (f === undefined || !(${passes(field, 'f')})) return false;`
            : `  if (f !== undefined && !(${passes(field, 'f')})) return false;`,
        );
      });
    }
    return lines.join('\n');
  };

  const top = functionFor(spec);
  try {
    // The source is built from the table's constants only (keys, words), never from a ledger.
    return new Function(`'use strict';\n${functions.join('\n')}\nreturn ${top};`)() as Passes;
  } catch {
    return null; // code generation is not allowed here: the interpreter decides alone
  }
}
