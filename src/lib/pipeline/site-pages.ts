// The Astro side of a build: the pages Astro renders (home, categories, search, documentation, site files) and what they are built from.
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AstroInlineConfig, AstroIntegration } from 'astro';
import astroSettings from '../../../astro.config.mjs';
import { linkFiles } from '../link-files.ts';
import type { SiteEntry } from '../site/site-index.ts';

/** Everything Astro's pages know of a build, handed to them as the module SITE_CONTEXT_MODULE. */
export interface SiteContext {
  /** The site's absolute address (also Astro's `site`). */
  site: string;
  /** Every record of the site, as the build checked it. */
  entries: SiteEntry[];
  /** The garments this build renders; null for all (the others' files are carried over). */
  renderedSlugs: string[] | null;
  /** Listing pages (paths) this build does not render, their last build's files being carried over (site-pages-kept.ts). */
  keptPages: string[];
}

/** What `src/site.ts` imports to read the build's SiteContext. */
export const SITE_CONTEXT_MODULE = 'virtual:garment-press/site-context';

/** The Astro integration that serves one build's context as SITE_CONTEXT_MODULE. */
export function siteContextIntegration(context: SiteContext): AstroIntegration {
  const resolvedId = `\0${SITE_CONTEXT_MODULE}`;
  // A string for JSON.parse: parsed faster than the same data as an object literal, and one token for the bundler.
  const code = `export default JSON.parse(${JSON.stringify(JSON.stringify(context))});`;
  return {
    name: 'garment-press:site-context',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'garment-press:site-context',
                resolveId: (id: string) => (id === SITE_CONTEXT_MODULE ? resolvedId : undefined),
                load: (id: string) => (id === resolvedId ? code : undefined),
              },
            ],
          },
        });
      },
    },
  };
}

/**
 * One build's Astro configuration: the settings of `astro.config.mjs` (read once, never again by
 * Astro) with the build's own site address, its folders (from `projectRoot`'s `src/pages` into
 * `outDir`, which is not emptied first since the record threads write into it too) and its context.
 */
export function astroConfig(context: SiteContext, projectRoot: string, outDir: string): AstroInlineConfig {
  return {
    ...astroSettings,
    configFile: false,
    root: projectRoot,
    outDir,
    site: context.site,
    logLevel: 'warn',
    vite: { ...astroSettings.vite, build: { ...astroSettings.vite?.build, emptyOutDir: false } },
    integrations: [...(astroSettings.integrations ?? []), siteContextIntegration(context)],
  };
}

/**
 * Renders Astro's pages of one build into `outDir`. Astro 7 writes its intermediate server build
 * under the working directory when `outDir` is not inside it (getOutDirWithinCwd), where two
 * builds at once would overwrite each other and which must resolve node_modules, so Astro works
 * from `privateDir`, a folder of this build's own inside the project, and the working directory is
 * put back after. Run in the Astro process (site-pages-process.ts), whose working directory no one
 * else shares.
 */
export async function renderSitePages(
  astro: typeof import('astro'),
  context: SiteContext,
  projectRoot: string,
  outDir: string,
  privateDir: string,
): Promise<void> {
  const workingDir = process.cwd();
  await mkdir(privateDir, { recursive: true });
  // Astro renames its assets from privateDir into outDir, which fails (EXDEV) across filesystems: it then builds beside privateDir, and the files are copied over.
  const sameFilesystem = (await stat(privateDir)).dev === (await stat(outDir)).dev;
  const astroOutDir = sameFilesystem ? outDir : path.join(privateDir, 'site');
  process.chdir(privateDir);
  try {
    await astro.build(astroConfig(context, projectRoot, astroOutDir));
  } finally {
    process.chdir(workingDir);
  }
  if (!sameFilesystem) await linkFiles(await listFiles(astroOutDir), astroOutDir, outDir);
}

/** Every file under a folder, as paths relative to it. */
async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}
