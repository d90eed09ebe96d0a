// The record schema, byte for byte the file the validator compiles.
import type { APIRoute } from 'astro';
import schema from '../../schema/garment-access-2.4.0.schema.json?raw';

export const GET: APIRoute = () => new Response(schema, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
