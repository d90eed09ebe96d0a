// The site's Astro settings. `npm run build` reads them and adds its own (src/lib/pipeline/site-pages.ts):
// the address given with --site, the folders, and the build's records as an integration's virtual module.
/** @type {import('astro').AstroUserConfig & { site: string }} */
export default {
  site: 'http://localhost:4321',
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  integrations: [],
};
