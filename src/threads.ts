// Where a worker thread's module is loaded from. Built, it is the .js file beside the caller.
// From source (tsx), a worker does not inherit tsx's loader on Node 20 ("Unknown file extension
// .ts"), so the thread starts from a small module that registers tsx and then imports the .ts
// file, handing on its default export (what tinypool calls).

/**
 * The URL (file: or data:) of the worker module `name` (a path relative to `callerUrl`, without
 * extension), for `new Worker(new URL(...))` or tinypool's `filename`.
 */
export function threadModule(callerUrl: string, name: string): string {
  const fromSource = callerUrl.endsWith('.ts');
  const moduleUrl = new URL(`${name}${fromSource ? '.ts' : '.js'}`, callerUrl).href;
  if (!fromSource) return moduleUrl;
  const bootstrap = [
    `const tsx = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});`,
    'tsx.register();',
    `const worker = await import(${JSON.stringify(moduleUrl)});`,
    'export default worker.default;',
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(bootstrap)}`;
}
