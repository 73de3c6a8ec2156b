import { timed, type Logger } from './effects.ts';

/**
 * One step of the build, declared the way OWID's etl declares its DAG: the values it reads
 * (`inputs`, by name), the one value it produces (`output`), and a function from the first to the
 * second. Steps never reach for a value they did not declare, so the declaration is the graph
 * (docs/architecture.md prints it) and a cached step's key can be made of exactly its inputs.
 */
export interface Step<C, In extends keyof C, Out extends keyof C> {
  /** What the build log calls it. */
  name: string;
  inputs: readonly In[];
  output: Out;
  run: (x: Pick<C, In>) => Promise<C[Out]> | C[Out];
  /** A short summary of the output for the log line. */
  detail?: (out: C[Out]) => string;
}

/** A step with its types erased, so steps with different inputs fit in one list. */
export interface AnyStep<C> {
  name: string;
  inputs: readonly (keyof C)[];
  output: keyof C;
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
    if (have.has(s.output)) throw new Error(`build graph: '${String(s.output)}' is produced twice (again by step '${s.name}')`);
    have.add(s.output);
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
    values[s.output] = (await timed(log, s.name, async () => (s.run as (x: never) => unknown)(input), detail)) as C[keyof C];
  }
  return values as C;
}

/** The graph as text, one step per line: `name: in1, in2 → out`. */
export function describeGraph<C>(steps: readonly AnyStep<C>[]): string[] {
  return steps.map((s) => `${s.name}: ${s.inputs.map(String).join(', ') || '(nothing)'} → ${String(s.output)}`);
}
