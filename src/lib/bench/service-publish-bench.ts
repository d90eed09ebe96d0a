// One publish on a big site: a copy (hard links) of a records folder is built once, then one
// `serve` process takes one changed record; where the time from POST to `complete` goes, read
// from the service's own log (its task and build lines, the build's stages) and the receiver.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import path from 'node:path';
import { openServiceStores } from '../service/index.ts';
import { runSiteBuildProcess } from '../publish/index.ts';
import { makeCertificate } from './loopback-certificate.ts';
import { BENCH_SITE, serveArguments, startBenchServe } from './service-bench.ts';

/** Where one publish's time went, in seconds from its POST. */
export interface OnePublishMeasure {
  records: number;
  /** The site's first build, before the service starts (not part of the publish). */
  firstBuildSeconds: number;
  /** Each step as the service logged it, in seconds since the POST was sent. */
  timeline: Array<{ at: number; step: string }>;
  /** The build's own stages (they overlap: render and search index run beside site pages). */
  buildStages: string;
  /** POST to the long poll's answer `complete`. */
  completeSeconds: number;
  /** POST to the receiver's having the event. */
  deliveredSeconds: number;
}

/** Runs the bench on a hard-linked copy of `sourceRecords` in `workDir`; `log` gets progress lines. */
export async function runOnePublishBench(sourceRecords: string, workDir: string, log: (line: string) => void): Promise<OnePublishMeasure> {
  const recordsDir = path.join(workDir, 'records');
  const outDir = path.join(workDir, 'out');
  const dataDir = path.join(workDir, 'data');
  mkdirSync(workDir, { recursive: true });
  // Hard links: a publish replaces its file by renaming a new one over it, so the source is never written.
  execFileSync('cp', ['-al', path.resolve(sourceRecords), recordsDir]);
  const files = readdirSync(recordsDir).filter((name) => name.endsWith('.json'));
  const target = files.find((name) => name.endsWith('.svc.json'));
  if (target === undefined) throw new Error(`${sourceRecords} has no .svc.json record`);
  const record = JSON.parse(readFileSync(path.join(recordsDir, target), 'utf8')) as Record<string, unknown> & { slug: string };

  log(`one publish: building the site of ${files.length} record files once`);
  const built = await runSiteBuildProcess({ recordsDir, outDir, site: BENCH_SITE });
  if (!built.ok) throw new Error(`the first build failed:\n${built.output}`);
  log(`one publish: first build ${built.seconds.toFixed(1)} s`);

  const stores = await openServiceStores({ kind: 'sqlite', dataDir }, { instance: 'bench-admin' });
  const organization = await stores.store.createOrganization('Bench');
  const { key } = await stores.store.createApiKey(organization.id);
  await stores.store.signingSecret(organization.id);
  await stores.store.owners.grant(record.slug, organization.id);
  await stores.close();

  const certificate = makeCertificate(workDir);
  let receivedAt: number | undefined;
  const receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    request.resume();
    request.on('end', () => {
      receivedAt ??= Date.now();
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;
  const logFile = path.join(workDir, 'serve.log');
  const serve = await startBenchServe(serveArguments({ recordsDir, outDir, dataDir, certificateFile: certificate.certFile }), logFile);
  try {
    log(`one publish: service listening; publishing ${record.slug}`);
    const sentAt = Date.now();
    const answer = await fetch(`${serve.url}/api/publish`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        record: { ...record, record_revision: `bench-one-publish-${sentAt}` },
        callback_url: `https://127.0.0.1:${receiverPort}/hooks/one`,
      }),
    });
    const text = await answer.text();
    const acceptedAt = Date.now();
    if (answer.status !== 202) throw new Error(`the publish answered ${answer.status}: ${text}`);
    const { handle } = JSON.parse(text) as { handle: string };
    for (;;) {
      const polled = await fetch(`${serve.url}/api/generations/${handle}?wait=50`, { headers: { Authorization: `Bearer ${key}` } });
      const state = (await polled.json()) as { done: boolean; status: string };
      if (!state.done) continue;
      if (state.status !== 'complete') throw new Error(`the publish ended ${state.status}; see ${logFile}`);
      break;
    }
    const completeAt = Date.now();
    const deadline = Date.now() + 60_000;
    while (receivedAt === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const serviceLog = readFileSync(logFile, 'utf8');
    const seconds = (at: number) => (at - sentAt) / 1000;
    const timeline = [
      { at: seconds(acceptedAt), step: '202 received' },
      ...serviceSteps(serviceLog, handle).map(({ at, step }) => ({ at: seconds(at), step })),
      { at: seconds(completeAt), step: 'long poll answered complete' },
      ...(receivedAt === undefined ? [] : [{ at: seconds(receivedAt), step: 'receiver has the event' }]),
    ].sort((a, b) => a.at - b.at);
    return {
      records: files.length,
      firstBuildSeconds: built.seconds,
      timeline,
      buildStages: /build #\d+ succeeded in [\d.]+ s \((.*)\)$/m.exec(serviceLog)?.[1] ?? 'not logged',
      completeSeconds: seconds(completeAt),
      deliveredSeconds: receivedAt === undefined ? Number.NaN : seconds(receivedAt),
    };
  } finally {
    await serve.stop();
    receiver.close();
  }
}

/** The service's log lines about the task and its build, with their times (epoch ms). */
function serviceSteps(serviceLog: string, handle: string): Array<{ at: number; step: string }> {
  const steps: Array<{ at: number; step: string }> = [];
  for (const line of serviceLog.split('\n')) {
    const match = /^(\d{4}-\S+Z) (.*)$/.exec(line);
    if (match === null) continue;
    const text = match[2]!;
    if ((text.includes(handle) && !text.startsWith('http ')) || /^build #\d+ |^site build running/.test(text)) {
      steps.push({ at: Date.parse(match[1]!), step: text.replace(`task ${handle}`, 'task').replace(/ \(its new site in .*\)$/, '') });
    }
  }
  return steps;
}

/** The measure as Markdown: the timeline, then the build's stages. */
export function formatOnePublish(measure: OnePublishMeasure): string {
  return [
    `one publish on a site of ${measure.records} record files (first build ${measure.firstBuildSeconds.toFixed(1)} s, not counted):`,
    '',
    '| s after POST | step |',
    '|---:|---|',
    ...measure.timeline.map(({ at, step }) => `| ${at.toFixed(2)} | ${step.replaceAll('|', '\\|')} |`),
    '',
    `build stages: ${measure.buildStages}`,
    `POST to complete: ${measure.completeSeconds.toFixed(2)} s; to the event received: ${measure.deliveredSeconds.toFixed(2)} s`,
  ].join('\n');
}
