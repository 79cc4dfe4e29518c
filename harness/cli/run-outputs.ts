/**
 * The files one simulation run writes (`icemu buzzard`, `icemu c104`): the
 * VCD and its .gtkw, the event trace, the JSON summary and its per-link CSV,
 * each checked before the run (one line naming the option, exit 2) and no
 * two naming one file.
 */
import { csvPathFor } from '../batch/report.ts';
import { distinctOutputs, outputFile } from './output-path.ts';
import { planVcd } from './vcd-output.ts';

export function planRunOutputs(vcd: string | undefined, events: string | undefined, json: string | undefined) {
  const vcdPlan = vcd === undefined ? undefined : planVcd('vcd', vcd);
  const eventsTarget = events === undefined ? undefined : outputFile('events', events);
  const jsonTarget = json === undefined ? undefined : outputFile('json', json);
  const csvTarget = jsonTarget && (jsonTarget.inPlace ? undefined : outputFile('json', csvPathFor(jsonTarget.path)));
  distinctOutputs([
    ['--vcd', vcdPlan?.vcd],
    ['--vcd (its .gtkw)', vcdPlan?.gtkw],
    ['--events', eventsTarget],
    ['--json', jsonTarget],
    ['--json (its .links.csv)', csvTarget],
  ]);
  return { vcdPlan, eventsTarget, jsonTarget, csvTarget };
}
