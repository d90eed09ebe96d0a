// The module a build serves its site context as (src/lib/pipeline/site-pages.ts).
declare module 'virtual:garment-press/site-context' {
  const context: import('./lib/pipeline/site-context-file.ts').SiteContext;
  export default context;
}
