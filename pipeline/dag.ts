import { timed, type Logger } from './effects.ts';

/**
 * One step of the build, declared the way OWID's etl declares its DAG: the values it reads
 * (`inputs`, by name), the values it produces (`outputs`, by name), and a function from the first
 * to the second. Steps never reach for a value they did not declare, so the declaration is the
 * graph (docs/architecture.md prints it) and a cached step's key can be made of exactly its inputs.
 * Effects are outputs too: a step that writes files outputs what it wrote, one that makes database
 * tables outputs their names, one that leaves something out outputs its omissions.
 */
export interface Step<C, In extends keyof C, Out extends keyof C> {
  /** What the build log calls it. */
  name: string;
  inputs: readonly In[];
  outputs: readonly Out[];
  run: (x: Pick<C, In>) => Promise<Pick<C, Out>> | Pick<C, Out>;
  /** A short summary of the outputs for the log line. */
  detail?: (out: Pick<C, Out>) => string;
}

/** A step with its types erased, so steps with different inputs fit in one list. */
export interface AnyStep<C> {
  name: string;
  inputs: readonly (keyof C)[];
  outputs: readonly (keyof C)[];
  run: (x: never) => unknown;
  detail?: (out: never) => string;
}

/** Declare a step of a graph over the values C, with its input and output names checked against C. */
export const stepOf =
  <C>() =>
  <In extends keyof C, Out extends keyof C>(s: Step<C, In, Out>): AnyStep<C> =>
    s as unknown as AnyStep<C>;

/**
 * Check that the steps, in the order given, are a topological order of their graph: every input
 * is given or produced by an earlier step, and no value is produced twice.
 */
export function checkGraph<C>(steps: readonly AnyStep<C>[], given: readonly (keyof C)[]): void {
  const have = new Set<keyof C>(given);
  for (const s of steps) {
    for (const i of s.inputs) {
      if (!have.has(i)) throw new Error(`build graph: step '${s.name}' reads '${String(i)}', which no earlier step produces`);
    }
    for (const o of s.outputs) {
      if (have.has(o)) throw new Error(`build graph: '${String(o)}' is produced twice (again by step '${s.name}')`);
      have.add(o);
    }
  }
}

/**
 * Run the steps in order over `values` (which starts with the given values and receives each
 * output as it is produced, so a caller's `finally` sees how far the build got), logging each with
 * its duration.
 */
export async function runSteps<C>(steps: readonly AnyStep<C>[], values: Partial<C>, log: Logger): Promise<C> {
  checkGraph(steps, Object.keys(values) as (keyof C)[]);
  for (const s of steps) {
    const input = Object.fromEntries(s.inputs.map((k) => [k, values[k]])) as never;
    const detail = s.detail as ((out: unknown) => string) | undefined;
    const out = (await timed(log, s.name, async () => (s.run as (x: never) => unknown)(input), detail)) as Partial<C>;
    for (const k of s.outputs) {
      if (!(k in out)) throw new Error(`build graph: step '${s.name}' did not produce '${String(k)}'`);
      values[k] = out[k];
    }
  }
  return values as C;
}

/** The graph as text, one step per line: `name: in1, in2 → out1, out2`. */
export function describeGraph<C>(steps: readonly AnyStep<C>[]): string[] {
  return steps.map((s) => `${s.name}: ${s.inputs.map(String).join(', ') || '(nothing)'} → ${s.outputs.map(String).join(', ')}`);
}
