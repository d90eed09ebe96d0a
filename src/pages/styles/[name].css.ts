// The site's stylesheet, at a name that changes with its content.
import path from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { stylesheet } from '../../site.ts';

export const getStaticPaths = (() => [{ params: { name: path.basename(stylesheet.path, '.css') } }]) satisfies GetStaticPaths;

export const GET: APIRoute = () => new Response(stylesheet.text, { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
