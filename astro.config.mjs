import { defineConfig } from 'astro/config';

// The site's absolute address: every URL in a record's `links` starts with it.
const site = process.env.SITE_URL ?? 'http://localhost:4321';

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  telemetry: false,
});
