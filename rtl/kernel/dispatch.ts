import type { ProcessDecl } from './module.ts';

/**
 * Generated dispatch (docs/kernel.md "Dispatch"): one call site per unit
 * class and process name (`new Function` writes a switch with a `fns[p]()`
 * per class), so each site sees the closures of one source function and the
 * engine can keep its call feedback monomorphic, where a single site for all
 * processes goes megamorphic. Same functions, same order: nothing observable
 * changes.
 */
export function generatedDispatch(fns: (() => void)[], decls: readonly ProcessDecl[]): (p: number) => void {
  const ids = new Map<string, number>();
  const cls = new Int32Array(decls.length);
  decls.forEach((d, k) => {
    const key = `${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}`;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    cls[k] = id;
  });
  let src = 'return function dispatch(p) { switch (cls[p]) {';
  for (let c = 0; c < ids.size; c++) src += ` case ${c}: fns[p](); return;`;
  src += ' } };';
  return new Function('fns', 'cls', src)(fns, cls) as (p: number) => void;
}
